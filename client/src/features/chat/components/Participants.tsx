import { Anchor, Button, Center, Group, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import type { ChatGroup } from '@/api/chat.api';
import { Spinner } from '@/components/loaders/loaders';
import { presenceLabel } from '@/components/presence/presence';
import { UserAvatar } from '@/components/user-avatar/UserAvatar';
import { type UserSearchResult, UserSearchDialog } from '@/components/user-search/UserSearchDialog';
import { searchPeople } from '@/features/people/people.actions';
import { sessionStore } from '@/features/session/session.store';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { usePresence } from '@/realtime/usePresence';
import { toMessageGroup, toUserProfile } from '@/routes/paths';
import { fullName, groupTitle } from '../chat-logic';
import { addParticipants, refreshGroup } from '../chat-groups.actions';
import { chatStore } from '../chat.store';
import { SidebarToggle } from './SidebarToggle';

/** /messages/{groupId}/participants: everyone in the chat with their live presence, and 'add people'. */
export function Participants({ code }: { code: string }) {
  const { t } = useTranslation();
  const me = useSnapshot(sessionStore).user?.code ?? null;
  const group = useSnapshot(chatStore).groups[code] as ChatGroup | undefined;
  const [failed, setFailed] = useState(false);
  const [adding, setAdding] = useState(false);
  const name = group ? groupTitle(group, me) : null;
  usePageHeader(t('CHAT.PARTICIPANTS'), name ? (name.empty ? t('CHAT.NO_USERS') : name.title) : '');

  useEffect(() => {
    refreshGroup(code).catch(() => setFailed(true));
  }, [code]);

  // Live: presence pushes for everyone listed (REST while the socket is down).
  const presences = usePresence(group?.participants.map((p) => p.userCode) ?? []);

  const add = (users: UserSearchResult[]) => {
    setAdding(false);
    void addParticipants(
      code,
      users.map((u) => u.code),
    ).catch(() => undefined);
  };

  if (failed)
    return (
      <Center style={{ flex: 1 }}>
        <Text c="dimmed">{t('CHAT.NOT_FOUND')}</Text>
      </Center>
    );
  if (!group) return <Spinner />;
  return (
    <Stack p="md" gap="md" style={{ flex: 1, minWidth: 0 }} data-testid="chat-participants">
      <Group justify="space-between">
        <Title order={3}>{t('CHAT.PARTICIPANTS')}</Title>
        <Group gap="xs">
          <SidebarToggle />
          <Button size="xs" variant="default" component={Link} to={toMessageGroup(code)}>
            {t('CHAT.BACK_TO_CHAT')}
          </Button>
          <Button size="xs" leftSection={<IconUserPlus size={14} />} onClick={() => setAdding(true)} data-testid="chat-participants-add">
            {t('CHAT.ADD_PEOPLE')}
          </Button>
        </Group>
      </Group>
      <ScrollArea style={{ flex: 1 }}>
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('CHAT.PARTICIPANTS')}>
          {group.participants.map((p) => {
            const presence = presences[p.userCode] ?? null;
            return (
              <Group
                key={p.userCode}
                component="li"
                gap="sm"
                wrap="nowrap"
                data-testid={`chat-participant-${p.userCode}`}
                data-presence={presence?.state ?? 'unknown'}
              >
                <UserAvatar name={p.user.name} surname={p.user.surname} url={p.user.avatar?.url} presence={presence} />
                <Stack gap={0}>
                  <Anchor component={Link} to={toUserProfile(p.userCode)} size="sm" fw={600}>
                    {fullName(p.user)}
                    {p.userCode === me ? ` (${t('CHAT.ME')})` : ''}
                  </Anchor>
                  {presence ? (
                    <Text size="xs" c="dimmed">
                      {presenceLabel(presence, t)}
                    </Text>
                  ) : null}
                </Stack>
              </Group>
            );
          })}
        </Stack>
      </ScrollArea>
      <UserSearchDialog
        opened={adding}
        onClose={() => setAdding(false)}
        onConfirm={add}
        search={searchPeople}
        excludeCodes={group.participants.map((p) => p.userCode)}
        title={t('CHAT.ADD_PEOPLE')}
      />
    </Stack>
  );
}
