import { ActionIcon, Group, Stack, Switch, Textarea, Tooltip } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { type KeyboardEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { canSend } from '../chat-logic';
import { isSendKey, readSendByEnter, writeSendByEnter } from '../send-by-enter';

const TYPING_EVERY_MS = 2_000;

export interface ComposerProps {
  /** False disables the field (group id too short and fewer than 2 participants). */
  enabled: boolean;
  onSend: (text: string) => void;
  onTyping?: () => void;
}

/** The text area, the send-by-enter toggle (kept in local storage) and the send button, disabled while empty. */
export function Composer({ enabled, onSend, onTyping }: ComposerProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [sendByEnter, setSendByEnter] = useState(readSendByEnter);
  const lastTyping = useRef(0);
  const sendable = enabled && canSend(text, 0);

  const handleSend = () => {
    if (!sendable) return;
    onSend(text.trim());
    setText('');
  };
  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!isSendKey(event, sendByEnter)) return;
    event.preventDefault();
    handleSend();
  };

  return (
    <Stack gap={4} p="xs" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <Group align="flex-end" wrap="nowrap" gap="xs">
        <Textarea
          style={{ flex: 1 }}
          autosize
          minRows={1}
          maxRows={6}
          disabled={!enabled}
          value={text}
          placeholder={t('CHAT.PLACEHOLDER')}
          aria-label={t('CHAT.PLACEHOLDER')}
          onChange={(e) => {
            setText(e.currentTarget.value);
            if (onTyping && Date.now() - lastTyping.current > TYPING_EVERY_MS) {
              lastTyping.current = Date.now();
              onTyping();
            }
          }}
          onKeyDown={handleKeyDown}
          data-testid="chat-composer-input"
        />
        <Tooltip label={t('CHAT.SEND')}>
          <ActionIcon size="lg" onClick={handleSend} disabled={!sendable} aria-label={t('CHAT.SEND')} data-testid="chat-send">
            <IconSend size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <Switch
        size="xs"
        label={t('CHAT.SEND_BY_ENTER')}
        checked={sendByEnter}
        onChange={(e) => {
          setSendByEnter(e.currentTarget.checked);
          writeSendByEnter(e.currentTarget.checked);
        }}
        data-testid="chat-send-by-enter"
      />
    </Stack>
  );
}
