import { ActionIcon, Alert, Badge, Card, Divider, Group, Menu, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import type { User } from '@/api/types';
import { USER_TYPE } from '@/api/user-types';
import { Spinner } from '@/components/loaders/loaders';
import { presenceLabel } from '@/components/presence/presence';
import { UserAvatar } from '@/components/user-avatar/UserAvatar';
import { LANGUAGES } from '@/i18n/languages';
import { sessionStore } from '@/features/session/session.store';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { LinkedProviders } from '@/features/auth/LinkedProviders';
import { ProfileReviews } from '@/features/reviews/components/ProfileReviews';
import { SafetyMenuItems } from '@/features/reports/MessageSafetyItems';
import { ProfileEditForm } from './ProfileEditForm';
import { useProfile } from './useProfile';
import { usePresence } from '@/realtime/usePresence';

const languageLabel = (code: string) => LANGUAGES.find((l) => l.code === code)?.label ?? code;

const formatOffset = (minutes: number) => {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
};

function Field({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text data-testid={testId}>{value || '—'}</Text>
    </div>
  );
}

/** /user, /u (own profile) and /u/{userCode}: avatar, name, presence, country, language, timezone. */
/** Report or block the person whose profile this is. */
function PersonMenu({ userCode, name }: { userCode: string; name: string }) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={t('REPORTS.PERSON_MENU')} data-testid="profile-person-menu">
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <SafetyMenuItems userCode={userCode} name={name} />
      </Menu.Dropdown>
    </Menu>
  );
}

export function ProfilePage() {
  const { t } = useTranslation();
  const { userCode } = useParams();
  const session = useSnapshot(sessionStore);
  const own = session.user as User | null;
  const { user, presence: loaded, loading, notFound } = useProfile(userCode, own);
  // Live like every other screen: the load's answer only until the watch has one.
  const presence = usePresence(user ? [user.code] : [])[user?.code ?? ''] ?? loaded;
  const isOwn = !!user && user.code === own?.code;
  usePageHeader(user ? `${user.name} ${user.surname}`.trim() : t('PROFILE.TITLE'), isOwn ? t('PROFILE.OWN') : '');

  if (loading) return <Spinner />;
  if (notFound || !user) {
    return (
      <Alert color="red" variant="light" maw={640} mx="auto" data-testid="profile-not-found">
        {t('PROFILE.NOT_FOUND')}
      </Alert>
    );
  }

  return (
    <Stack maw={760} mx="auto" data-testid="profile">
      <Card withBorder padding="lg" radius="md">
        <Group gap="lg" wrap="nowrap">
          <UserAvatar name={user.name} surname={user.surname} url={user.avatar?.url} presence={presence} size={84} />
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Group gap="xs" wrap="nowrap">
              <Title order={2} data-testid="profile-name">
                {user.name} {user.surname}
              </Title>
              {!isOwn && own ? <PersonMenu userCode={user.code} name={`${user.name} ${user.surname}`.trim()} /> : null}
            </Group>
            <Group gap="xs">
              <Badge variant="light">{user.type === USER_TYPE.Company ? t('USER.TYPE_COMPANY') : t('USER.TYPE_PERSONAL')}</Badge>
              {presence && (
                <Badge variant="dot" color={presence.color} data-testid="profile-presence">
                  {presenceLabel(presence, t)}
                </Badge>
              )}
            </Group>
          </Stack>
        </Group>
        <Divider my="md" />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Field label={t('USER.COUNTRY')} value={user.country ?? ''} testId="profile-country" />
          <Field label={t('USER.LANGUAGE')} value={languageLabel(user.lang)} testId="profile-language" />
          <Field
            label={t('USER.TIMEZONE')}
            value={user.timezone ? `${user.timezone.name} (${user.timezone.abbr}, ${formatOffset(user.timezone.offset)})` : ''}
            testId="profile-timezone"
          />
        </SimpleGrid>
      </Card>
      <ProfileReviews userCode={user.code} isOwn={isOwn} />
      {isOwn && (
        <Card withBorder padding="lg" radius="md">
          <Title order={4} mb="md">
            {t('PROFILE.EDIT')}
          </Title>
          <ProfileEditForm user={user} onSaved={() => undefined} />
        </Card>
      )}
      {isOwn && <LinkedProviders />}
    </Stack>
  );
}
