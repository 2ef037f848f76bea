import { Badge, Button, Center, Group, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconEye, IconRefresh } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import type { ChatGroup } from '@/api/chat.api';
import { ROOMS_WINDOW_MINUTES, type BusyRoom } from '@/api/moderation.api';
import { Spinner } from '@/components/loaders/loaders';
import { formatMessageTime, groupTitle } from '@/features/chat/chat-logic';
import { sessionStore } from '@/features/session/session.store';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { toAdminRoom } from '@/routes/paths';
import { loadRooms, openRooms } from './moderation.actions';
import { moderationStore } from './moderation.store';

/**
 * Names for rooms without one, by the group name rule (up to 2 people, then '+N'; 'No users'), from the groups
 * the rooms' load read. A room whose group cannot be read keeps its code.
 */
function useRoomNames(rooms: readonly BusyRoom[] | null): Record<string, string> {
  const { t } = useTranslation();
  const me = useSnapshot(sessionStore).user?.code ?? null;
  const groups = useSnapshot(moderationStore).roomGroups as Record<string, ChatGroup>;
  const names: Record<string, string> = {};
  for (const room of rooms ?? []) {
    const group = groups[room.code];
    const title = group ? groupTitle(group, me) : null;
    if (room.name) names[room.code] = room.name;
    else if (!title) names[room.code] = room.code;
    else if (title.subtitle) names[room.code] = `${title.title} · ${title.subtitle}`;
    else names[room.code] = title.empty ? t('CHAT.NO_USERS') : title.more > 0 ? `${title.title} +${title.more}` : title.title;
  }
  return names;
}

/** /admin/rooms: the busiest rooms of the moderator's scope, each with a Watch button. */
export function RoomsPage() {
  const { t } = useTranslation();
  usePageHeader(t('MODERATION.ROOMS'), t('MODERATION.ROOMS_HINT', { minutes: ROOMS_WINDOW_MINUTES }));
  const { rooms, roomsFailed: failed } = useSnapshot(moderationStore);
  const names = useRoomNames(rooms);
  const handleRefresh = () => void loadRooms();

  useEffect(() => {
    void openRooms();
  }, []);

  return (
    <Stack gap="md" data-testid="moderation-rooms">
      <Group justify="space-between">
        <Title order={2} fz="h3">
          {t('MODERATION.ROOMS')}
        </Title>
        <Button size="xs" variant="default" leftSection={<IconRefresh size={14} />} onClick={handleRefresh} data-testid="moderation-rooms-refresh">
          {t('MODERATION.REFRESH')}
        </Button>
      </Group>
      {failed ? <Text c="dimmed">{t('MODERATION.ROOMS_FAILED')}</Text> : null}
      {!rooms && !failed ? <Spinner /> : null}
      {rooms && rooms.length === 0 ? (
        <Center py="xl">
          <Text c="dimmed" data-testid="moderation-rooms-empty">
            {t('MODERATION.NO_ROOMS', { minutes: ROOMS_WINDOW_MINUTES })}
          </Text>
        </Center>
      ) : null}
      {rooms && rooms.length > 0 ? (
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover>
            <Table.Caption>{t('MODERATION.ROOMS_HINT', { minutes: ROOMS_WINDOW_MINUTES })}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('MODERATION.ROOM')}</Table.Th>
                <Table.Th>{t('MODERATION.MESSAGES')}</Table.Th>
                <Table.Th>{t('MODERATION.PEOPLE')}</Table.Th>
                <Table.Th>{t('MODERATION.LAST_MESSAGE')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('MODERATION.WATCH')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rooms.map((room) => (
                <Table.Tr key={room.code} data-testid={`moderation-room-${room.code}`}>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Text size="sm" fw={600} data-testid="moderation-room-name">
                        {names[room.code]}
                      </Text>
                      {room.watched ? (
                        <Badge size="xs" color="orange" variant="light">
                          {t('MODERATION.MODERATED')}
                        </Badge>
                      ) : null}
                    </Group>
                  </Table.Td>
                  <Table.Td>{room.messages}</Table.Td>
                  <Table.Td>{t('MODERATION.CONNECTED_OF', { connected: room.connectedParticipants, total: room.participants })}</Table.Td>
                  <Table.Td>{formatMessageTime(room.lastMessageAt)}</Table.Td>
                  <Table.Td>
                    <Button
                      size="compact-sm"
                      leftSection={<IconEye size={14} aria-hidden />}
                      component={Link}
                      to={toAdminRoom(room.code)}
                      aria-label={t('MODERATION.WATCH_ROOM', { name: names[room.code] })}
                      data-testid="moderation-watch"
                    >
                      {t('MODERATION.WATCH')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
    </Stack>
  );
}
