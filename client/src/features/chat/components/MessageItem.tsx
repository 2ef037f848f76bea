import { ActionIcon, Anchor, Box, Button, Group, Menu, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconDots, IconLanguage, IconRefresh, IconTrash, IconUser } from '@tabler/icons-react';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { SafetyMenuItems } from '@/features/reports/MessageSafetyItems';
import { OffPlatformNote } from '@/features/safety/OffPlatformNote';
import { UserAvatar } from '@/components/user-avatar/UserAvatar';
import { toUserProfile } from '@/routes/paths';
import { type ListedMessage, formatMessageTime, fullName, shownText } from '../chat-logic';
import { useHighlighted } from '../useHighlighted';
import { languageName } from '../translation-preference';
import { MessageText } from '../message-text/MessageText';
import { MessageFiles } from './MessageFiles';
import { MessageReplyEditItems } from './MessageReplyEditItems';
import { MessageReplyQuote, type MessageReplyQuoteProps } from './MessageReplyQuote';
import { SystemMessageCard, isSystemMessage } from './SystemMessageCard';

export interface MessageItemProps {
  message: ListedMessage;
  mine: boolean;
  authorName: string;
  authorSurname: string;
  avatarUrl: string | null;
  onRetry: (clientKey: string) => void;
  /** The author or a moderator, and the message is stored and not deleted. */
  canDelete: boolean;
  /** The reader switched this translated message back to its original text. */
  showingOriginal: boolean;
  onDelete: (code: string) => void;
  onToggleOriginal: (code: string) => void;
  /** Clicking a reply's quote; without it (the default) the quote does not jump. */
  onJumpToReply?: MessageReplyQuoteProps['onJump'];
  /** The reader writes in this chat: the menu offers Reply and Edit. Default false (a moderator's read-only view). */
  writable?: boolean;
  /** The reader moderates: an off-platform message also shows the moderators' flag. Default false. */
  moderating?: boolean;
  /**
   * Another's message in another language than the reader's that no engine will translate: machine translation
   * is off, or no engine serves the pair. Said under it rather than silently showing nothing.
   */
  translationOff?: 'off' | 'unsupported' | null;
}

type MenuProps = Pick<
  MessageItemProps,
  'message' | 'mine' | 'writable' | 'canDelete' | 'showingOriginal' | 'onDelete' | 'onToggleOriginal' | 'authorName' | 'authorSurname'
>;

/** Show profile (every message with an author), show original / translation (translated ones), delete (author, moderators). */
function MessageMenu({ message, mine, writable = false, canDelete, showingOriginal, onDelete, onToggleOriginal, authorName, authorSurname }: MenuProps) {
  const { t } = useTranslation();
  const translated = Boolean(message.translation) && !message.deleted;
  if (!message.userCode && !translated && !canDelete) return null;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon size="sm" variant="subtle" color="gray" aria-label={t('CHAT.MESSAGE_MENU')} data-testid="chat-message-menu">
          <IconDots size={14} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {message.userCode ? (
          <Menu.Item component={Link} to={toUserProfile(message.userCode)} leftSection={<IconUser size={14} />} data-testid="chat-message-profile">
            {t('CHAT.SHOW_PROFILE')}
          </Menu.Item>
        ) : null}
        {writable ? <MessageReplyEditItems message={message} mine={mine} /> : null}
        {translated ? (
          <Menu.Item leftSection={<IconLanguage size={14} />} onClick={() => onToggleOriginal(message.code)} data-testid="chat-message-translation">
            {showingOriginal ? t('CHAT.SHOW_TRANSLATION') : t('CHAT.SHOW_ORIGINAL')}
          </Menu.Item>
        ) : null}
        {canDelete ? (
          <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => onDelete(message.code)} data-testid="chat-message-delete">
            {t('CHAT.DELETE')}
          </Menu.Item>
        ) : null}
        {writable && !mine && message.userCode && !message.deleted && message.seq > 0 ? (
          <SafetyMenuItems
            userCode={message.userCode}
            name={fullName({ name: authorName, surname: authorSurname })}
            message={{ groupCode: message.groupCode, code: message.code }}
          />
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}

/** Under a translated message: "Translated from Spanish · Show original", or "Show translation" while the original shows. */
function TranslatedLine({ language, showingOriginal, onToggle }: { language: string | null; showingOriginal: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const { language: ui } = useSnapshot(preferencesStore);
  const from = languageName(language, ui);
  return (
    // On a narrow bubble the link goes under the label whole, rather than each squeezed into a column.
    <Group gap={4} style={{ rowGap: 0 }} wrap="wrap" data-testid="chat-message-translated" data-showing={showingOriginal ? 'original' : 'translation'}>
      {!showingOriginal ? (
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {from ? t('CHAT.TRANSLATED_FROM', { language: from }) : t('CHAT.TRANSLATED')} ·
        </Text>
      ) : null}
      <Anchor component="button" type="button" size="xs" onClick={onToggle} data-testid="chat-message-translated-toggle">
        {showingOriginal ? t('CHAT.SHOW_TRANSLATION') : t('CHAT.SHOW_ORIGINAL')}
      </Anchor>
    </Group>
  );
}

/** Under a message no engine will translate for this reader: "Translation off", with why on hover. */
function TranslationOffLine({ reason, language }: { reason: 'off' | 'unsupported'; language: string | null }) {
  const { t } = useTranslation();
  const { language: ui } = useSnapshot(preferencesStore);
  const why = reason === 'off' ? t('CHAT.TRANSLATION_OFF_NO_ENGINE') : t('CHAT.TRANSLATION_OFF_NO_PAIR', { language: languageName(language, ui) ?? language });
  return (
    <Text size="xs" c="dimmed" title={why} aria-label={`${t('CHAT.TRANSLATION_OFF')}: ${why}`} data-testid="chat-message-translation-off" data-reason={reason}>
      {t('CHAT.TRANSLATION_OFF')}
    </Text>
  );
}

/** One message (offer and other system messages as a card): avatar and name open a run of the same author; mine on the right; sending at half opacity, failed in red. */
export const MessageItem = memo(function MessageItem(props: MessageItemProps) {
  const { message, mine, authorName, authorSurname, avatarUrl, onRetry, showingOriginal, onJumpToReply } = props;
  const { t } = useTranslation();
  const highlighted = useHighlighted(message.groupCode, message.seq);
  if (isSystemMessage(message)) return <SystemMessageCard message={message} />;
  const failed = message.state === 'failed';
  const head = !message.hasPrevious;
  const text = shownText(message, showingOriginal);
  const files = !message.deleted && message.files?.length ? message.files : null;
  // A message of files alone shows its files without an empty bubble above them.
  const bubble = message.deleted || text.trim() !== '' || !files;
  return (
    <Group
      align="flex-end"
      justify={mine ? 'flex-end' : 'flex-start'}
      wrap="nowrap"
      gap="xs"
      mt={head ? 'sm' : 2}
      style={{ opacity: message.state === 'sending' ? 0.5 : 1 }}
      data-testid="chat-message"
      data-code={message.code}
      data-seq={message.seq}
      data-state={message.state}
      data-mine={mine}
      data-has-previous={message.hasPrevious}
      data-has-next={message.hasNext}
      data-highlighted={highlighted || undefined}
    >
      {!mine ? <Box w={32}>{!message.hasNext ? <UserAvatar name={authorName} surname={authorSurname} url={avatarUrl} size="sm" /> : null}</Box> : null}
      <Stack gap={2} maw="70%" align={mine ? 'flex-end' : 'flex-start'}>
        {head ? (
          <Group gap={6}>
            <Text size="xs" fw={600}>
              {mine ? t('CHAT.ME') : fullName({ name: authorName, surname: authorSurname })}
            </Text>
            <Text size="xs" c="dimmed" data-testid="chat-message-time">
              {formatMessageTime(message.createdAt)}
            </Text>
          </Group>
        ) : null}
        {bubble ? (
          <Group gap={4} wrap="nowrap" align="center" style={{ flexDirection: mine ? 'row-reverse' : 'row' }}>
            <Tooltip label={formatMessageTime(message.createdAt)} disabled={head} openDelay={500}>
              <Paper
                px="sm"
                py={6}
                radius="md"
                bg={mine ? 'var(--mantine-primary-color-light)' : 'var(--mantine-color-default-hover)'}
                style={{
                  ...(failed ? { border: '1px solid var(--mantine-color-error)' } : undefined),
                  ...(highlighted ? { outline: '2px solid var(--mantine-color-yellow-5)', outlineOffset: 2 } : undefined),
                }}
                data-testid="chat-message-bubble"
              >
                {message.replyTo && !message.deleted ? (
                  <MessageReplyQuote groupCode={message.groupCode} reply={message.replyTo} onJump={onJumpToReply} />
                ) : null}
                {message.deleted ? (
                  <Text size="sm" fs="italic" c="dimmed" data-testid="chat-message-deleted">
                    {t('CHAT.DELETED')}
                  </Text>
                ) : (
                  <MessageText text={text} />
                )}
                {message.translation && !message.deleted ? (
                  <TranslatedLine language={message.language} showingOriginal={showingOriginal} onToggle={() => props.onToggleOriginal(message.code)} />
                ) : props.translationOff && !mine && !message.deleted && text.trim() ? (
                  <TranslationOffLine reason={props.translationOff} language={message.language} />
                ) : null}
                {message.offPlatform && !message.deleted ? <OffPlatformNote mine={mine} flagged={props.moderating} /> : null}
                {message.editedAt && !message.deleted ? (
                  <Text size="xs" c="dimmed" ta="right" title={formatMessageTime(message.editedAt)} data-testid="chat-message-edited">
                    {t('CHAT.EDITED')}
                  </Text>
                ) : null}
              </Paper>
            </Tooltip>
            <MessageMenu {...props} />
          </Group>
        ) : null}
        {files ? (
          bubble ? (
            <MessageFiles codes={files} mine={mine} />
          ) : (
            <Group
              gap={4}
              wrap="nowrap"
              align="center"
              style={{ flexDirection: mine ? 'row-reverse' : 'row', outline: failed ? '1px solid var(--mantine-color-error)' : undefined }}
            >
              <MessageFiles codes={files} mine={mine} />
              <MessageMenu {...props} />
            </Group>
          )
        ) : null}
        {failed ? (
          <Group gap={4}>
            <Text size="xs" c="var(--mantine-color-error)" data-testid="chat-message-failed">
              {t('CHAT.FAILED')}
            </Text>
            <Button
              size="compact-xs"
              variant="subtle"
              color="red"
              leftSection={<IconRefresh size={12} />}
              onClick={() => onRetry(message.clientKey as string)}
              data-testid="chat-message-retry"
            >
              {t('CHAT.RETRY')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Group>
  );
});
