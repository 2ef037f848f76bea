import { ActionIcon, Box, Button, Center, Group, ScrollArea, Stack, Text, Tooltip } from '@mantine/core';
import { IconSettings, IconUsers } from '@tabler/icons-react';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import type { ChatGroup, ChatMessage } from '@/api/chat.api';
import { Spinner } from '@/components/loaders/loaders';
import { roleOf, sessionStore } from '@/features/session/session.store';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { realtimeStore } from '@/realtime/connection';
import { toMessageParticipants, toMessageSettings } from '@/routes/paths';
import { MESSAGE_POLL_MS, canDeleteMessage, canWrite, fullName, groupTitle, withGroupingFlags } from '../chat-logic';
import { deleteMessage, deliver, ensureGroup, loadOlder, markRead, openThread, pollNewer, sendMessage, sendTyping } from '../chat.actions';
import { authorOf, chatStore, messagesOf, toggleOriginal } from '../chat.store';
import { openChat } from '../open-chat';
import { Composer } from './Composer';
import { GroupName } from './GroupName';
import { MessageItem } from './MessageItem';

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
  const viewport = useRef<HTMLDivElement>(null);
  const group = chat.groups[code] as ChatGroup | undefined;
  const thread = chat.threads[code];
  const name = group ? groupTitle(group, me) : null;
  usePageHeader(name ? (name.empty ? t('CHAT.NO_USERS') : name.title) : t('MENU.MESSAGES'), group?.subtitle ?? '');

  useEffect(() => {
    openChat.code = code;
    setFailed(false);
    ensureGroup(code)
      .then(() => openThread(code))
      .catch(() => setFailed(true));
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

  const messages = useMemo(() => withGroupingFlags(messagesOf(thread as never)), [thread]);
  const typing = useTypingLabel(code, group);

  // Stay at the bottom as messages arrive, unless the reader scrolled up to older ones.
  const atBottom = useRef(true);
  const lastCode = messages[messages.length - 1]?.code;
  useLayoutEffect(() => {
    const el = viewport.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [lastCode, messages.length]);

  if (failed) return <Center h="100%"><Text c="dimmed">{t('CHAT.NOT_FOUND')}</Text></Center>;
  if (!group || !thread?.loaded) return <Spinner />;

  const author = (m: ChatMessage) => authorOf(m);
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
        </Group>
      </Group>
      <ScrollArea
        style={{ flex: 1 }}
        viewportRef={viewport}
        onScrollPositionChange={({ y }) => {
          const el = viewport.current;
          atBottom.current = !el || el.scrollHeight - el.clientHeight - y < 40;
        }}
      >
        <Stack gap={0} px="md" py="xs" role="log" aria-live="polite" aria-label={t('CHAT.MESSAGES')} data-testid="chat-messages">
          {thread.mayLoadOlder ? (
            <Center>
              <Button variant="subtle" size="xs" onClick={() => void loadOlder(code)} data-testid="chat-load-older">
                {t('CHAT.LOAD_OLDER')}
              </Button>
            </Center>
          ) : null}
          {messages.length === 0 ? (
            <Center py="xl">
              <Text c="dimmed" data-testid="chat-empty">{t('CHAT.WRITE_FIRST')}</Text>
            </Center>
          ) : null}
          {messages.map((m) => {
            const user = author(m);
            return (
              <MessageItem
                key={m.clientKey && m.userCode === me ? m.clientKey : m.code}
                message={m}
                mine={m.userCode !== null && m.userCode === me}
                authorName={user?.name ?? '?'}
                authorSurname={user?.surname ?? ''}
                avatarUrl={user?.avatar?.url ?? null}
                onRetry={(clientKey) => void deliver(code, clientKey)}
                canDelete={canDeleteMessage(m, me, role)}
                showingOriginal={Boolean(chat.original[m.code])}
                onDelete={(messageCode) => void deleteMessage(code, messageCode).catch(() => undefined)}
                onToggleOriginal={toggleOriginal}
              />
            );
          })}
        </Stack>
      </ScrollArea>
      <Group h={18} px="md">
        {typing ? <Text size="xs" c="dimmed" data-testid="chat-typing">{typing}</Text> : null}
      </Group>
      <Composer
        enabled={canWrite(code, group.participantCount)}
        onSend={(text) => {
          atBottom.current = true;
          void sendMessage(code, text);
        }}
        onTyping={() => sendTyping(code)}
      />
    </Stack>
  );
}
