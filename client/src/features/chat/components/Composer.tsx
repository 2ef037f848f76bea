import { ActionIcon, Button, CloseButton, Group, NativeSelect, Stack, Switch, Text, Textarea, Tooltip } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconPaperclip, IconSend } from '@tabler/icons-react';
import { type ClipboardEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { notify } from '@/components/notifications/notify';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { OffPlatformWarning } from '@/features/safety/OffPlatformWarning';
import { LANGUAGES, type LanguageCode, languageOf } from '@/i18n/languages';
import { type OffPlatformKind, detectOffPlatform } from '@contracts/off-platform';
import { clearlyOtherLanguage, loadDetector } from '../language-suggestion';
import { languageName } from '../translation-preference';
import { MAX_ATTACHMENTS, canSendWith, filesFromClipboard, uploadedCodes } from '../attachments';
import { isSendKey, readSendByEnter, writeSendByEnter } from '../send-by-enter';
import { useAttachments } from '../useAttachments';
import { useComposerMode } from '../useComposerMode';
import { AttachmentStrip } from './AttachmentStrip';
import { ComposerModeBar } from './ComposerModeBar';

const TYPING_EVERY_MS = 2_000;
/** The language is guessed once typing pauses this long. */
const DETECT_AFTER_MS = 400;

/**
 * The language the typed text is clearly written in when the selected one is another (null otherwise), checked
 * once typing pauses; a suggestion the writer dismissed is not made again until the field is emptied.
 */
function useLanguageSuggestion(text: string, selected: LanguageCode): { suggested: LanguageCode | null; dismiss: () => void } {
  const [suggested, setSuggested] = useState<LanguageCode | null>(null);
  const dismissed = useRef(new Set<LanguageCode>());
  useEffect(() => {
    if (!text.trim()) {
      dismissed.current.clear();
      setSuggested(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      void loadDetector()
        .then((detect) => {
          const found = clearlyOtherLanguage(detect, text, selected);
          if (live) setSuggested(found && !dismissed.current.has(found) ? found : null);
        })
        .catch(() => undefined);
    }, DETECT_AFTER_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text, selected]);
  return {
    suggested,
    dismiss: () => {
      if (suggested) dismissed.current.add(suggested);
      setSuggested(null);
    },
  };
}

/** The interface language is the default message language (the writer may pick another in the composer). */
export function defaultMessageLanguage(): LanguageCode {
  return preferencesStore.language;
}

export interface ComposerProps {
  /** The group the attached files are uploaded into. */
  groupCode: string;
  /** False disables the field (group id too short and fewer than 2 participants). */
  enabled: boolean;
  onSend: (text: string, files: string[], language: LanguageCode) => void;
  onTyping?: () => void;
  /** Warn before sending contact details or a request to pay outside Parley (an offer's chat before Agreed). Default false. */
  warnOffPlatform?: boolean;
}

/**
 * The text area, the message language, the attach button and the strip of attached files (shown or
 * hidden; pasting files attaches them too), the send-by-enter toggle and the send button, which needs
 * text or a file and waits for every upload to finish.
 */
export function Composer({ groupCode, enabled, onSend, onTyping, warnOffPlatform = false }: ComposerProps) {
  const { t } = useTranslation();
  const uiLanguage = useSnapshot(preferencesStore).language;
  const [text, setText] = useState('');
  const [sendByEnter, setSendByEnter] = useState(readSendByEnter);
  const [language, setLanguage] = useState<LanguageCode>(defaultMessageLanguage);
  const [stripShown, setStripShown] = useState(true);
  /** What the detector found in the text the writer tried to send; the warning shows until they choose or change it. */
  const [warning, setWarning] = useState<OffPlatformKind[] | null>(null);
  const attachments = useAttachments(groupCode);
  const fileInput = useRef<HTMLInputElement>(null);
  const lastTyping = useRef(0);
  const stripId = useId();
  const composerMode = useComposerMode(groupCode, setText);
  // An edit keeps its message's language: only a new message's is suggested.
  const suggestion = useLanguageSuggestion(composerMode.editing ? '' : text, language);
  // An edit changes the text only: it needs some.
  const sendable = enabled && (composerMode.editing ? text.trim() !== '' : canSendWith(text, attachments.list));
  const uploading = attachments.list.some((a) => a.status === 'uploading');

  const attach = (files: readonly File[]) => {
    if (!files.length) return;
    const left = attachments.add(files);
    setStripShown(true);
    if (left > 0) notify.info(t('CHAT.ATTACH_LIMIT', { n: left, max: MAX_ATTACHMENTS }));
  };
  const handleSend = (confirmed = false) => {
    if (!sendable) return;
    if (warnOffPlatform && !confirmed) {
      const found = detectOffPlatform(text);
      if (found.length) return setWarning(found);
    }
    setWarning(null);
    if (composerMode.editing) return void composerMode.saveEdit(text);
    onSend(text.trim(), uploadedCodes(attachments.list), language);
    setText('');
    attachments.clear();
  };
  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (composerMode.handleKey(event, handleSend)) return;
    if (!isSendKey(event, sendByEnter)) return;
    event.preventDefault();
    handleSend();
  };
  const handlePaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = filesFromClipboard(event.clipboardData);
    if (!files.length) return;
    event.preventDefault();
    attach(files);
  };

  const count = attachments.list.length;
  return (
    <Stack gap={4} p="xs" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }} data-testid="chat-composer">
      {composerMode.mode ? <ComposerModeBar groupCode={groupCode} mode={composerMode.mode} onCancel={composerMode.cancel} /> : null}
      {warning ? (
        <OffPlatformWarning
          kinds={warning}
          onSendAnyway={() => handleSend(true)}
          onEdit={() => {
            setWarning(null);
            composerMode.inputRef.current?.focus();
          }}
        />
      ) : null}
      {count > 0 && stripShown ? (
        <div id={stripId}>
          <AttachmentStrip list={attachments.list} onRemove={attachments.remove} onRetry={attachments.retry} />
        </div>
      ) : null}
      <Group align="flex-end" wrap="nowrap" gap="xs">
        <Tooltip label={t('CHAT.ATTACH')}>
          <ActionIcon
            size="lg"
            variant="subtle"
            disabled={!enabled}
            onClick={() => fileInput.current?.click()}
            aria-label={t('CHAT.ATTACH')}
            data-testid="chat-attach"
          >
            <IconPaperclip size={18} />
          </ActionIcon>
        </Tooltip>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          tabIndex={-1}
          aria-hidden="true"
          data-testid="chat-attach-input"
          onChange={(e) => {
            attach(Array.from(e.currentTarget.files ?? []));
            e.currentTarget.value = '';
          }}
        />
        <Textarea
          ref={composerMode.inputRef}
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
            setWarning(null);
            if (onTyping && Date.now() - lastTyping.current > TYPING_EVERY_MS) {
              lastTyping.current = Date.now();
              onTyping();
            }
          }}
          onKeyDown={handleKeyDown}
          onPaste={handlePaste}
          data-testid="chat-composer-input"
        />
        <Tooltip label={uploading ? t('CHAT.ATTACH_WAIT') : composerMode.editing ? t('CHAT.SAVE') : t('CHAT.SEND')}>
          <ActionIcon
            size="lg"
            onClick={() => handleSend()}
            disabled={!sendable}
            aria-label={composerMode.editing ? t('CHAT.SAVE') : t('CHAT.SEND')}
            data-testid="chat-send"
          >
            <IconSend size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
      {suggestion.suggested ? (
        <Group gap={6} wrap="nowrap" data-testid="chat-language-suggestion" data-language={suggestion.suggested}>
          <Text size="xs" c="dimmed">
            {t('CHAT.LANGUAGE_DETECTED', { language: languageName(suggestion.suggested, uiLanguage) })}
          </Text>
          <Button
            size="compact-xs"
            variant="light"
            onClick={() => {
              setLanguage(suggestion.suggested!);
              suggestion.dismiss();
            }}
            data-testid="chat-language-suggestion-accept"
          >
            {t('CHAT.LANGUAGE_USE', { language: languageOf(suggestion.suggested).label })}
          </Button>
          <CloseButton size="xs" aria-label={t('CHAT.LANGUAGE_KEEP')} onClick={suggestion.dismiss} data-testid="chat-language-suggestion-dismiss" />
        </Group>
      ) : null}
      <Group gap="md" wrap="wrap">
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
        <NativeSelect
          size="xs"
          aria-label={t('CHAT.LANGUAGE')}
          title={t('CHAT.LANGUAGE')}
          value={language}
          onChange={(e) => setLanguage(e.currentTarget.value as LanguageCode)}
          data={LANGUAGES.map((l) => ({ value: l.code, label: l.label }))}
          disabled={!enabled}
          data-testid="chat-language"
        />
        {count > 0 ? (
          <Button
            size="compact-xs"
            variant="subtle"
            leftSection={stripShown ? <IconChevronDown size={12} /> : <IconChevronUp size={12} />}
            onClick={() => setStripShown((v) => !v)}
            aria-expanded={stripShown}
            aria-controls={stripShown ? stripId : undefined}
            data-testid="chat-attachments-toggle"
          >
            {stripShown ? t('CHAT.ATTACH_HIDE', { n: count }) : t('CHAT.ATTACH_SHOW', { n: count })}
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}
