import { Box, Button, Center, Text } from '@mantine/core';
import type { ChatReplyPreview } from '@contracts/events';
import { type MutableRefObject, type ReactNode, useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { type ListedMessage, MODERATOR_ROLES, canDeleteMessage } from '../chat-logic';
import { deleteMessage } from '../message-changes.actions';
import { deliver } from '../sending/send-message';
import { loadOlder } from '../message-pages.actions';
import { authorOf, chatStore, toggleOriginal } from '../chat.store';
import { showsOriginal, translationPreference } from '../translation-preference';
import { translationStatus, translationUnavailable } from '../translation-status';
import { sessionStore } from '@/features/session/session.store';
import { NewMessagesDivider } from '../reading/NewMessagesDivider';
import { BlockedMessage } from '@/features/reports/BlockedMessage';
import { blocksStore, hiddenAsBlocked } from '@/features/reports/blocks.store';
import { MessageItem } from './MessageItem';
import { VirtualList, type VirtualListControl } from './VirtualList';

/** A row's key: my own message keeps its clientKey from sending to stored, so the row is not replaced. */
export const messageRowKey = (m: Pick<ListedMessage, 'clientKey' | 'userCode' | 'code'>, me: string | null): string =>
  m.clientKey && m.userCode === me ? m.clientKey : m.code;

export interface MessageListProps {
  groupCode: string;
  messages: readonly ListedMessage[];
  me: string | null;
  role: number;
  mayLoadOlder: boolean;
  /** Shown when there are no messages. */
  empty: ReactNode;
  stickRef: MutableRefObject<boolean>;
  /** The row the 'new messages' divider sits above. Default: no divider. */
  dividerKey?: string | null;
  /** Default: none. */
  controlRef?: MutableRefObject<VirtualListControl | null>;
  /** Default: nobody is told. */
  onAtBottomChange?: (atBottom: boolean) => void;
  /**
   * Lays the messages out for a reader who is not in the chat (a moderator): none is theirs, and new ones
   * are read out by screen readers (the chat has its own live region instead). Default false.
   */
  asObserver?: boolean;
  /** A reply's quote was clicked. Default: quotes are not links. */
  onJumpToReply?: (reply: ChatReplyPreview) => void;
  /** The row to scroll to and highlight (a reply's original), once per id. Default: none. */
  jumpTo?: { key: string; id: number } | null;
}

/** A chat's messages, oldest first, in a virtualised list with 'load older' above; the chat and the moderators' room view share it. */
export function MessageList({
  groupCode,
  messages,
  me,
  role,
  mayLoadOlder,
  empty,
  stickRef,
  dividerKey = null,
  controlRef,
  onAtBottomChange,
  asObserver = false,
  onJumpToReply,
  jumpTo = null,
}: MessageListProps) {
  const { t } = useTranslation();
  const { original, groups } = useSnapshot(chatStore);
  const groupType = groups[groupCode]?.type;
  const { blocked } = useSnapshot(blocksStore);
  const { on: translateOn } = useSnapshot(translationPreference);
  const status = useSnapshot(translationStatus);
  const readerLang = useSnapshot(sessionStore).user?.lang ?? null;
  const rowKey = useCallback((m: ListedMessage) => messageRowKey(m, me), [me]);
  const retry = useCallback((clientKey: string) => void deliver(groupCode, clientKey), [groupCode]);
  const remove = useCallback((code: string) => void deleteMessage(groupCode, code).catch(() => undefined), [groupCode]);
  const renderRow = useCallback(
    (m: ListedMessage) => {
      const user = authorOf(m);
      const item = (
        <MessageItem
          message={m}
          mine={!asObserver && m.userCode !== null && m.userCode === me}
          authorName={user?.name ?? '?'}
          authorSurname={user?.surname ?? ''}
          avatarUrl={user?.avatar?.url ?? null}
          onRetry={retry}
          canDelete={canDeleteMessage(m, me, role)}
          showingOriginal={showsOriginal(translateOn, Boolean(original[m.code]))}
          translationOff={m.translation ? null : translationUnavailable(status, m.language, readerLang)}
          onDelete={remove}
          onToggleOriginal={toggleOriginal}
          onJumpToReply={onJumpToReply}
          writable={!asObserver}
          moderating={MODERATOR_ROLES.includes(role)}
        />
      );
      // A blocked author's messages are collapsed, except in an offer's chat: the deal goes on (docs/moderation.md).
      const shown = !asObserver && hiddenAsBlocked(blocked, m.userCode, groupType) ? <BlockedMessage>{item}</BlockedMessage> : item;
      if (dividerKey === null || rowKey(m) !== dividerKey) return shown;
      return (
        <>
          <NewMessagesDivider />
          {shown}
        </>
      );
    },
    [me, role, original, translateOn, status, readerLang, retry, remove, asObserver, dividerKey, rowKey, onJumpToReply, blocked, groupType],
  );

  return (
    <VirtualList
      items={messages}
      itemKey={rowKey}
      stickRef={stickRef}
      controlRef={controlRef}
      onAtBottomChange={onAtBottomChange}
      jumpTo={jumpTo}
      scrollProps={{
        style: { flex: 1, minHeight: 0, paddingInline: 'var(--mantine-spacing-md)' },
        tabIndex: 0,
        'aria-label': t('CHAT.MESSAGES'),
        'data-testid': 'chat-scroll',
      }}
      listProps={
        asObserver
          ? { role: 'log', 'aria-live': 'polite', 'aria-label': t('CHAT.MESSAGES'), 'data-testid': 'chat-messages' }
          : { role: 'feed', 'aria-label': t('CHAT.MESSAGES'), 'data-testid': 'chat-messages' }
      }
      header={
        mayLoadOlder ? (
          <Center pt="xs">
            <Button variant="subtle" size="xs" onClick={() => void loadOlder(groupCode)} data-testid="chat-load-older">
              {t('CHAT.LOAD_OLDER')}
            </Button>
          </Center>
        ) : (
          <Box h={8} />
        )
      }
      footer={
        messages.length === 0 ? (
          <Center py="xl">
            <Text c="dimmed" data-testid="chat-empty">
              {empty}
            </Text>
          </Center>
        ) : (
          <Box h={8} />
        )
      }
      renderItem={renderRow}
    />
  );
}
