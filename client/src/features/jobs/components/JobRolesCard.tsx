import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { JobRole } from '@/api/job.api';
import { Spinner } from '@/components/loaders/loaders';
import { UserAvatar } from '@/components/user-avatar/UserAvatar';
import { translateMessage } from '@/i18n/messages';
import { toUserProfile } from '@/routes/paths';
import { usePeople } from '../hooks/usePeople';

/** The job's roles with their users, each a link to the profile. */
export function JobRolesCard({ roles }: { roles: readonly JobRole[] | undefined }) {
  const { t } = useTranslation();
  const people = usePeople((roles ?? []).flatMap((r) => r.users.map((u) => u.code)));
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="job-roles-title" data-testid="job-roles">
      <Title order={3} fz="h4" mb="xs" id="job-roles-title">
        {t('JOBS.ROLES')}
      </Title>
      {!roles ? (
        <Spinner size="sm" />
      ) : (
        <Stack gap="xs">
          {roles.map((role) => (
            <Group key={role.id} gap="xs" wrap="wrap" data-testid={`job-role-${role.id}`}>
              <Text size="sm" fw={500} w={120}>
                {translateMessage(role.name)}
              </Text>
              {role.users.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('JOBS.ROLE_NOBODY')}
                </Text>
              ) : (
                role.users.map((u) => (
                  <Anchor key={u.code} component={Link} to={toUserProfile(u.code)} size="sm" data-testid="job-role-user">
                    <Group gap={6} wrap="nowrap">
                      <UserAvatar name={u.name} surname={u.surname} url={people[u.code]?.avatar?.url} size="sm" />
                      {`${u.name} ${u.surname}`.trim()}
                    </Group>
                  </Anchor>
                ))
              )}
            </Group>
          ))}
        </Stack>
      )}
    </Card>
  );
}
