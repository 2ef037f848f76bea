import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { notify } from '@/components/notifications/notify';
import { type UserSearchResult, UserSearchDialog } from '@/components/user-search/UserSearchDialog';
import { searchPeople } from '@/features/people/people.actions';
import { appointOwner } from './admin.actions';
import { adminStore } from './admin.store';

/**
 * For global admins: appoints a user of the instance as its owner, who becomes its instance admin
 * (nobody becomes an admin by registering first). The server refuses a user of another instance.
 */
export function InstanceOwnerCard({ instanceCode }: { instanceCode: string }) {
  const { t } = useTranslation();
  const [picking, setPicking] = useState(false);
  const { appointing } = useSnapshot(adminStore);

  const handleConfirm = async (users: UserSearchResult[]) => {
    if (users.length !== 1) {
      notify.error(t('ADMIN.OWNER.PICK_ONE'));
      return;
    }
    const [owner] = users;
    setPicking(false);
    // A refusal: the error handler has shown why.
    if (await appointOwner(instanceCode, owner.code)) notify.success(t('ADMIN.OWNER.APPOINTED', { name: `${owner.name} ${owner.surname}`.trim() }));
  };

  return (
    <Card withBorder radius="md" data-testid="instance-owner">
      <Stack gap="xs">
        <Title order={4}>{t('ADMIN.OWNER.TITLE')}</Title>
        <Text size="sm" c="dimmed">
          {t('ADMIN.OWNER.HINT')}
        </Text>
        <Group>
          <Button variant="light" loading={appointing} onClick={() => setPicking(true)} data-testid="instance-owner-pick">
            {t('ADMIN.OWNER.APPOINT')}
          </Button>
        </Group>
      </Stack>
      <UserSearchDialog
        opened={picking}
        onClose={() => setPicking(false)}
        onConfirm={(users) => void handleConfirm(users)}
        search={searchPeople}
        title={t('ADMIN.OWNER.APPOINT')}
        confirmLabel={t('ADMIN.OWNER.CONFIRM')}
      />
    </Card>
  );
}
