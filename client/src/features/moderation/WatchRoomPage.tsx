import { Alert, Badge, Button, Center, Group, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconEye } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import type { ChatGroup } from '@/api/chat.api';
import { Spinner } from '@/components/loaders/loaders';
import { groupTitle } from '@/features/chat/chat-logic';
import { chatStore, messagesOf } from '@/features/chat/chat.store';
import { ChatInfoBar } from '@/features/chat/components/ChatInfoBar';
import { MessageList } from '@/features/chat/components/MessageList';
import { createListedCache } from '@/features/chat/listed-messages';
import { roleOf, sessionStore } from '@/features/session/session.store';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { ConnectionBanner } from '@/realtime/ConnectionBanner';
import { realtimeStore } from '@/realtime/connection';
import { paths } from '@/routes/paths';
import { type WatchResult, loadWatchedGroup, loadWatchedMessages, startWatching, stopWatching } from './watch-room';

/**
 * /admin/rooms/{groupId}: a room watched by a moderator, read-only and live (room:watch, again after every
 * reconnect, then what came meanwhile), with delete on every message. The participants see the 'moderated'
 * badge meanwhile. The server gives a moderator who is not in the room its messages only while the watch is
 * live, so nothing is read while the socket is down.
 */
export function WatchRoomPage() {
  const { groupId = '' } = useParams();
  const { t } = useTranslation();
  const chat = useSnapshot(chatStore);
  const session = useSnapshot(sessionStore);
  const me = session.user?.code ?? null;
  const role = roleOf(session);
  const { status } = useSnapshot(realtimeStore);
  const [failed, setFailed] = useState(false);
  const [watch, setWatch] = useState<WatchResult | 'starting'>('starting');
  const group = chat.groups[groupId] as ChatGroup | undefined;
  const thread = chat.threads[groupId];
  const name = group ? groupTitle(group, me) : null;
  usePageHeader(t('MODERATION.WATCHING'), name ? (name.empty ? t('CHAT.NO_USERS') : name.title) : groupId);

  useEffect(() => {
    setFailed(false);
    loadWatchedGroup(groupId).catch(() => setFailed(true));
  }, [groupId]);

  // Watch on every (re)connect (a new socket is in no room yet), then read what the watch allows.
  useEffect(() => {
    if (status !== 'connected') {
      setWatch('offline');
      return;
    }
    let live = true;
    setWatch('starting');
    void startWatching(groupId).then(async (res) => {
      if (!live) return;
      setWatch(res);
      if (res === 'live') await loadWatchedMessages(groupId).catch(() => undefined);
    });
    return () => {
      live = false;
    };
  }, [groupId, status]);
  useEffect(() => () => void stopWatching(groupId), [groupId]);

  const listed = useMemo(createListedCache, [groupId]);
  const messages = useMemo(() => listed(messagesOf(thread as never)), [listed, thread]);
  const atBottom = useRef(true);

  if (failed)
    return (
      <Center h="100%">
        <Text c="dimmed">{t('CHAT.NOT_FOUND')}</Text>
      </Center>
    );
  if (!group) return <Spinner />;

  return (
    <Stack gap={0} h="calc(100dvh - 56px - 2 * var(--mantine-spacing-md))" data-testid="moderation-watch-room" data-group={groupId} data-watch={watch}>
      <ConnectionBanner />
      <Group px="md" py="xs" justify="space-between" wrap="nowrap" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Group gap="xs" miw={0} wrap="nowrap">
          <Text fw={700} truncate>
            {name?.empty ? t('CHAT.NO_USERS') : name?.title}
          </Text>
          <Badge
            color={watch === 'live' ? 'orange' : 'gray'}
            variant="light"
            leftSection={<IconEye size={12} aria-hidden />}
            data-testid="moderation-watch-state"
            data-state={watch}
          >
            {watch === 'live' ? t('MODERATION.LIVE') : watch === 'refused' ? t('MODERATION.REFUSED') : t('MODERATION.NOT_LIVE')}
          </Badge>
        </Group>
        <Button size="xs" variant="default" component={Link} to={paths.adminRooms} leftSection={<IconArrowLeft size={14} />}>
          {t('MODERATION.BACK_TO_ROOMS')}
        </Button>
      </Group>
      <ChatInfoBar group={group} />
      {watch === 'refused' ? <Alert color="red">{t('MODERATION.REFUSED_HINT')}</Alert> : null}
      {thread?.loaded ? (
        <MessageList
          key={groupId}
          groupCode={groupId}
          messages={messages}
          me={me}
          role={role}
          mayLoadOlder={thread.mayLoadOlder}
          empty={t('CHAT.NO_MESSAGES')}
          stickRef={atBottom}
          asObserver
        />
      ) : watch === 'live' || watch === 'starting' ? (
        <Spinner />
      ) : (
        <Center py="xl" style={{ flex: 1 }}>
          <Text c="dimmed" ta="center" data-testid="moderation-watch-to-read">
            {t('MODERATION.WATCH_TO_READ')}
          </Text>
        </Center>
      )}
      <Text size="xs" c="dimmed" px="md" py={6} style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        {t('MODERATION.READ_ONLY')}
      </Text>
    </Stack>
  );
}
