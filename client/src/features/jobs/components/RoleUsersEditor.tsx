import { Button, Group, Pill, Stack, Text } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { JobRoleUser } from '@/api/job.api';
import { UserSearchDialog } from '@/components/user-search/UserSearchDialog';
import { searchPeople } from '@/features/people/people.actions';
import { translateMessage } from '@/i18n/messages';
import { JOB_ROLES, type RoleUsers } from '../job-form';

const fullName = (u: JobRoleUser) => `${u.name} ${u.surname}`.trim();

/** The job's roles with their users: people are added through the user search dialog and removed one by one. */
export function RoleUsersEditor({ value, onChange }: { value: RoleUsers; onChange: (next: RoleUsers) => void }) {
  const { t } = useTranslation();
  const [picking, setPicking] = useState<number | null>(null);
  const users = (id: number) => value[id] ?? [];
  const picked = picking === null ? null : JOB_ROLES.find((r) => r.id === picking);

  return (
    <Stack gap="sm" data-testid="job-form-roles">
      {JOB_ROLES.map((role) => {
        const name = translateMessage(role.name);
        return (
          <Group key={role.id} gap="xs" wrap="wrap" align="center" data-testid={`job-form-role-${role.id}`}>
            <Text size="sm" fw={500} w={130}>
              {name}
            </Text>
            {users(role.id).length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('JOBS.ROLE_NOBODY')}
              </Text>
            ) : (
              <Pill.Group>
                {users(role.id).map((user) => (
                  <Pill
                    key={user.code}
                    withRemoveButton
                    onRemove={() => onChange({ ...value, [role.id]: users(role.id).filter((u) => u.code !== user.code) })}
                    // Mantine hides a pill's remove button from the keyboard and screen readers (made for inputs
                    // with Backspace); here it is the only way to remove someone, so it is a real button.
                    removeButtonProps={{ 'aria-label': t('JOBS.ROLE_REMOVE', { name: fullName(user), role: name }), 'aria-hidden': false, tabIndex: 0 }}
                    data-testid="job-form-role-user"
                  >
                    {fullName(user)}
                  </Pill>
                ))}
              </Pill.Group>
            )}
            <Button
              size="compact-sm"
              variant="subtle"
              leftSection={<IconUserPlus size={14} aria-hidden />}
              onClick={() => setPicking(role.id)}
              aria-label={t('JOBS.ROLE_ADD_TO', { role: name })}
              data-testid="job-form-role-add"
            >
              {t('JOBS.ROLE_ADD')}
            </Button>
          </Group>
        );
      })}
      <UserSearchDialog
        opened={picked !== null && picked !== undefined}
        onClose={() => setPicking(null)}
        search={searchPeople}
        excludeCodes={picking === null ? [] : users(picking).map((u) => u.code)}
        title={picked ? t('JOBS.ROLE_DIALOG', { role: translateMessage(picked.name) }) : undefined}
        onConfirm={(found) => {
          if (picking !== null) {
            const more = found.map(({ code, name, surname }) => ({ code, name, surname }));
            onChange({ ...value, [picking]: [...users(picking), ...more] });
          }
          setPicking(null);
        }}
      />
    </Stack>
  );
}
