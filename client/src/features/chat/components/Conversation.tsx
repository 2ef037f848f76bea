import { Box, Center, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useCallback, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { ChatGroup, ChatMessage } from '@/api/chat.api';
import { Spinner } from '@/components/loaders/loaders';
import { roleOf, sessionStore } from '@/features/session/session.store';
import { BlockedOfferNotice } from '@/features/reports/BlockedOfferNotice';
import { useOffPlatformGuard } from '@/features/safety/off-platform-guard';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { type ListedMessage, canWrite, groupTitle } from '../chat-logic';
import { sendMessage } from '../sending/send-message';
import { sendTyping } from '../typing.actions';
import { chatStore, messagesOf } from '../chat.store';
import { ConversationHeader } from '../conversation/ConversationHeader';
import { useMessagePolling } from '../conversation/useMessagePolling';
import { useOpenConversation } from '../conversation/useOpenConversation';
import { useTypingLabel } from '../conversation/useTypingLabel';
import { createListedCache } from '../listed-messages';
import { takeReply } from '../reply-edit.store';
import { useReplyJump } from '../useReplyJump';
import { useNewMessageAnnouncements } from '../live-announcements';
import { JumpToLatestButton } from '../reading/JumpToLatestButton';
import { useReadingPosition } from '../reading/useReadingPosition';
import { ChatInfoBar } from './ChatInfoBar';
import { Composer } from './Composer';
import { MessageList, messageRowKey } from './MessageList';
import type { VirtualListControl } from './VirtualList';

/** One chat: header, the message list with 'load older' and the new-messages divider, and the composer. */
export function Conversation({ code }: { code: string }) {
  const { t } = useTranslation();
  const chat = useSnapshot(chatStore);
  const session = useSnapshot(sessionStore);
  const me = session.user?.code ?? null;
  const group = chat.groups[code] as ChatGroup | undefined;
  const thread = chat.threads[code];
  const loaded = Boolean(group && thread?.loaded);
  const name = group ? groupTitle(group, me) : null;
  usePageHeader(name ? (name.empty ? t('CHAT.NO_USERS') : name.title) : t('MENU.MESSAGES'), group?.subtitle || name?.subtitle || '');

  const { failed, mark } = useOpenConversation(code);
  useMessagePolling(code, thread?.loaded ?? false);
  // Rows keep their objects while unchanged, so the memoised rows of a long thread are not rendered again.
  const listed = useMemo(createListedCache, [code]);
  const messages = useMemo(() => listed(messagesOf(thread as never)), [listed, thread]);
  const typing = useTypingLabel(code, group);
  const warnOffPlatform = useOffPlatformGuard(group ?? { type: 0, targetId: null });
  const announcements = useNewMessageAnnouncements(code, messages, me, thread?.loaded ?? false);

  // Stay at the bottom as messages arrive, unless the reader scrolled up to older ones (the list keeps this).
  const atBottom = useRef(true);
  const list = useRef<VirtualListControl | null>(null);
  const rowKey = useCallback((m: ListedMessage) => messageRowKey(m, me), [me]);
  const reading = useReadingPosition(messages, rowKey, loaded, mark, me, list);
  const { jumpToReply, jumpTo } = useReplyJump(
    code,
    thread,
    useCallback((m: ChatMessage) => messageRowKey(m, me), [me]),
  );

  if (failed)
    return (
      <Center h="100%">
        <Text c="dimmed">{t('CHAT.NOT_FOUND')}</Text>
      </Center>
    );
  if (!group || !thread?.loaded) return <Spinner />;

  return (
    <Stack gap={0} h="100%" style={{ flex: 1, minWidth: 0 }} data-testid="chat-conversation" data-group={code}>
      <ConversationHeader group={group} me={me} />
      <ChatInfoBar group={group} />
      <BlockedOfferNotice group={group} me={me} />
      <Box pos="relative" style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
        <MessageList
          key={code}
          groupCode={code}
          messages={messages}
          me={me}
          role={roleOf(session)}
          mayLoadOlder={thread.mayLoadOlder}
          empty={t('CHAT.WRITE_FIRST')}
          stickRef={atBottom}
          dividerKey={reading.dividerKey}
          controlRef={list}
          onAtBottomChange={reading.handleAtBottomChange}
          onJumpToReply={jumpToReply}
          jumpTo={jumpTo}
        />
        <JumpToLatestButton count={reading.newCount} onJump={reading.jumpToLatest} />
      </Box>
      <VisuallyHidden role="log" aria-live="polite" aria-label={t('CHAT.NEW_MESSAGES')} data-testid="chat-live-region">
        {announcements.map((a) => (
          <p key={a.key}>{a.text}</p>
        ))}
      </VisuallyHidden>
      <Group h={18} px="md">
        {typing ? (
          <Text size="xs" c="dimmed" data-testid="chat-typing">
            {typing}
          </Text>
        ) : null}
      </Group>
      <Composer
        groupCode={code}
        enabled={canWrite(code, group.participantCount)}
        onSend={(text, files, language) => {
          atBottom.current = true;
          list.current?.scrollToEnd();
          void sendMessage(code, text, files, language, takeReply(code));
        }}
        onTyping={() => sendTyping(code)}
        warnOffPlatform={warnOffPlatform}
      />
    </Stack>
  );
}
