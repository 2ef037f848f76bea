import { Badge, Button, Center, Group, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconEye, IconRefresh } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Spinner } from '@/components/loaders/loaders';
import { formatMessageTime } from '@/features/chat/chat-logic';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { toAdminRoom } from '@/routes/paths';
import { ROOMS_WINDOW_MINUTES, type BusyRoom, moderationApi } from './moderation.api';

/** /admin/rooms: the busiest rooms of the moderator's scope, each with a Watch button. */
export function RoomsPage() {
  const { t } = useTranslation();
  usePageHeader(t('MODERATION.ROOMS'), t('MODERATION.ROOMS_HINT', { minutes: ROOMS_WINDOW_MINUTES }));
  const [rooms, setRooms] = useState<BusyRoom[] | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(() => {
    setFailed(false);
    moderationApi
      .rooms()
      .then(setRooms)
      .catch(() => setFailed(true));
  }, []);
  useEffect(load, [load]);

  return (
    <Stack gap="md" data-testid="moderation-rooms">
      <Group justify="space-between">
        <Title order={2} fz="h3">
          {t('MODERATION.ROOMS')}
        </Title>
        <Button size="xs" variant="default" leftSection={<IconRefresh size={14} />} onClick={load} data-testid="moderation-rooms-refresh">
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
                      <Text size="sm" fw={600}>
                        {room.name ?? room.code}
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
                      aria-label={t('MODERATION.WATCH_ROOM', { name: room.name ?? room.code })}
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
