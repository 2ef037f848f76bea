import { ActionIcon, Box, Button, Center, Group, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconSettings, IconUsers } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import type { ChatGroup, ChatMessage } from '@/api/chat.api';
import { Spinner } from '@/components/loaders/loaders';
import { roleOf, sessionStore } from '@/features/session/session.store';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { realtimeStore } from '@/realtime/connection';
import { toMessageParticipants, toMessageSettings } from '@/routes/paths';
import { type ListedMessage, MESSAGE_POLL_MS, canDeleteMessage, canLoadMessages, canWrite, fullName, groupTitle } from '../chat-logic';
import { deleteMessage, deliver, ensureGroup, loadOlder, markRead, openThread, pollNewer, sendMessage, sendTyping } from '../chat.actions';
import { authorOf, chatStore, messagesOf, toggleOriginal } from '../chat.store';
import { openChat } from '../open-chat';
import { takeReply } from '../reply-edit.store';
import { useReplyJump } from '../useReplyJump';
import { ChatHeaderExtras } from './ChatHeaderExtras';
import { ChatInfoBar } from './ChatInfoBar';
import { Composer } from './Composer';
import { GroupName } from './GroupName';
import { MessageItem } from './MessageItem';
import { VirtualList } from './VirtualList';
import { useNewMessageAnnouncements } from '../live-announcements';
import { createListedCache } from '../listed-messages';

function useTypingLabel(code: string, group: ChatGroup | undefined): string | null {
  const { t } = useTranslation();
  const typing = useSnapshot(chatStore).typing[code];
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!typing) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, typing.until - Date.now()) + 50);
    return () => clearTimeout(timer);
  }, [typing]);
  if (!typing || typing.until < now) return null;
  const who = group?.participants.find((p) => p.userCode === typing.userCode)?.user;
  return t('CHAT.TYPING', { name: who ? fullName(who) : '…' });
}

/** One chat: header, the message list with 'load older', and the composer; polls every 5 s only while the socket is down. */
export function Conversation({ code }: { code: string }) {
  const { t } = useTranslation();
  const chat = useSnapshot(chatStore);
  const session = useSnapshot(sessionStore);
  const me = session.user?.code ?? null;
  const role = roleOf(session);
  const { status } = useSnapshot(realtimeStore);
  const [failed, setFailed] = useState(false);
  const group = chat.groups[code] as ChatGroup | undefined;
  const thread = chat.threads[code];
  const name = group ? groupTitle(group, me) : null;
  usePageHeader(name ? (name.empty ? t('CHAT.NO_USERS') : name.title) : t('MENU.MESSAGES'), group?.subtitle || name?.subtitle || '');

  useEffect(() => {
    openChat.code = code;
    // Spec section 4: messages load only for a group id of 5+ characters.
    setFailed(!canLoadMessages(code));
    if (canLoadMessages(code)) {
      ensureGroup(code)
        .then(() => openThread(code))
        .catch(() => setFailed(true));
    }
    return () => {
      if (openChat.code === code) openChat.code = null;
    };
  }, [code]);

  useEffect(() => {
    if (status === 'connected' || !thread?.loaded) return;
    const timer = setInterval(() => {
      void pollNewer(code)
        .then((n) => (n ? markRead(code) : undefined))
        .catch(() => undefined);
    }, MESSAGE_POLL_MS);
    return () => clearInterval(timer);
  }, [status, code, thread?.loaded]);

  // Rows keep their objects while unchanged, so the memoised rows of a long thread are not rendered again.
  const listed = useMemo(createListedCache, [code]);
  const messages = useMemo(() => listed(messagesOf(thread as never)), [listed, thread]);
  const typing = useTypingLabel(code, group);

  // Stay at the bottom as messages arrive, unless the reader scrolled up to older ones (the list keeps this).
  const atBottom = useRef(true);
  useEffect(() => {
    atBottom.current = true;
  }, [code]);
  const announcements = useNewMessageAnnouncements(code, messages, me, thread?.loaded ?? false);
  const rowKey = useCallback((m: ChatMessage) => (m.clientKey && m.userCode === me ? m.clientKey : m.code), [me]);
  const retry = useCallback((clientKey: string) => void deliver(code, clientKey), [code]);
  const remove = useCallback((messageCode: string) => void deleteMessage(code, messageCode).catch(() => undefined), [code]);
  const original = chat.original;
  const { jumpToReply, jumpTo } = useReplyJump(code, thread, rowKey);
  const renderRow = useCallback(
    (m: ListedMessage) => {
      const user = authorOf(m);
      return (
        <MessageItem
          message={m}
          mine={m.userCode !== null && m.userCode === me}
          authorName={user?.name ?? '?'}
          authorSurname={user?.surname ?? ''}
          avatarUrl={user?.avatar?.url ?? null}
          onRetry={retry}
          canDelete={canDeleteMessage(m, me, role)}
          showingOriginal={Boolean(original[m.code])}
          onDelete={remove}
          onToggleOriginal={toggleOriginal}
          onJumpToReply={jumpToReply}
          writable
        />
      );
    },
    [me, role, original, retry, remove, jumpToReply],
  );

  if (failed) return <Center h="100%"><Text c="dimmed">{t('CHAT.NOT_FOUND')}</Text></Center>;
  if (!group || !thread?.loaded) return <Spinner />;

  return (
    <Stack gap={0} h="100%" style={{ flex: 1, minWidth: 0 }} data-testid="chat-conversation" data-group={code}>
      <Group px="md" py="xs" justify="space-between" wrap="nowrap" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Box miw={0}>
          <GroupName group={group} meCode={me} size="md" fw={700} />
          {group.subtitle ? <Text size="xs" c="dimmed" truncate>{group.subtitle}</Text> : null}
        </Box>
        <Group gap={4} wrap="nowrap">
          <Tooltip label={t('CHAT.PARTICIPANTS')}>
            <ActionIcon component={Link} to={toMessageParticipants(code)} variant="subtle" aria-label={t('CHAT.PARTICIPANTS')} data-testid="chat-open-participants">
              <IconUsers size={18} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('CHAT.SETTINGS')}>
            <ActionIcon component={Link} to={toMessageSettings(code)} variant="subtle" aria-label={t('CHAT.SETTINGS')} data-testid="chat-open-settings">
              <IconSettings size={18} />
            </ActionIcon>
          </Tooltip>
          <ChatHeaderExtras group={group} />
        </Group>
      </Group>
      <ChatInfoBar group={group} />
      <VirtualList
        key={code}
        items={messages}
        itemKey={rowKey}
        stickRef={atBottom}
        jumpTo={jumpTo}
        scrollProps={{ style: { flex: 1, minHeight: 0, paddingInline: 'var(--mantine-spacing-md)' }, tabIndex: 0, 'aria-label': t('CHAT.MESSAGES'), 'data-testid': 'chat-scroll' }}
        listProps={{ role: 'feed', 'aria-label': t('CHAT.MESSAGES'), 'aria-busy': !thread.loaded, 'data-testid': 'chat-messages' }}
        header={
          thread.mayLoadOlder ? (
            <Center pt="xs">
              <Button variant="subtle" size="xs" onClick={() => void loadOlder(code)} data-testid="chat-load-older">
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
              <Text c="dimmed" data-testid="chat-empty">{t('CHAT.WRITE_FIRST')}</Text>
            </Center>
          ) : (
            <Box h={8} />
          )
        }
        renderItem={renderRow}
      />
      <VisuallyHidden role="log" aria-live="polite" aria-label={t('CHAT.NEW_MESSAGES')} data-testid="chat-live-region">
        {announcements.map((a) => (
          <p key={a.key}>{a.text}</p>
        ))}
      </VisuallyHidden>
      <Group h={18} px="md">
        {typing ? <Text size="xs" c="dimmed" data-testid="chat-typing">{typing}</Text> : null}
      </Group>
      <Composer
        groupCode={code}
        enabled={canWrite(code, group.participantCount)}
        onSend={(text, files, language) => {
          atBottom.current = true;
          void sendMessage(code, text, files, language, takeReply(code));
        }}
        onTyping={() => sendTyping(code)}
      />
    </Stack>
  );
}
