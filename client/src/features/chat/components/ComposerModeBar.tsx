import { ActionIcon, Box, Group, Text } from '@mantine/core';
import { IconArrowBackUp, IconPencil, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ComposerMode } from '../reply-edit.store';
import { MessageReplyQuote } from './MessageReplyQuote';

export interface ComposerModeBarProps {
  groupCode: string;
  mode: ComposerMode;
  onCancel: () => void;
}

/** Above the composer while it answers a message (the quote) or edits one of mine; × (or Esc) cancels. */
export function ComposerModeBar({ groupCode, mode, onCancel }: ComposerModeBarProps) {
  const { t } = useTranslation();
  const replying = mode.kind === 'reply';
  return (
    <Group gap="xs" wrap="nowrap" align="center" data-testid="chat-composer-mode" data-mode={mode.kind}>
      {replying ? <IconArrowBackUp size={16} aria-hidden="true" /> : <IconPencil size={16} aria-hidden="true" />}
      <Box style={{ flex: 1, minWidth: 0 }}>
        {replying ? (
          <MessageReplyQuote groupCode={groupCode} reply={mode.replyTo} />
        ) : (
          <Text size="xs" fw={600}>
            {t('CHAT.EDITING')}
          </Text>
        )}
      </Box>
      <ActionIcon
        size="sm"
        variant="subtle"
        color="gray"
        onClick={onCancel}
        aria-label={replying ? t('CHAT.CANCEL_REPLY') : t('CHAT.CANCEL_EDIT')}
        title={t('CHAT.ESC_CANCELS')}
        data-testid="chat-composer-mode-cancel"
      >
        <IconX size={14} />
      </ActionIcon>
    </Group>
  );
}
