import { Card, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBriefcase, IconMessages, IconUser } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { instanceStore } from '@/features/instance/instance.store';
import { sessionStore } from '@/features/session/session.store';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { paths, toUserProfile } from '@/routes/paths';

function Tile({ to, icon, title, text }: { to: string; icon: ReactNode; title: string; text: string }) {
  return (
    <Card component={Link} to={to} withBorder padding="lg" radius="md">
      <ThemeIcon variant="light" size="lg" mb="sm">
        {icon}
      </ThemeIcon>
      <Text fw={600}>{title}</Text>
      <Text size="sm" c="dimmed">
        {text}
      </Text>
    </Card>
  );
}

export function DashboardPage() {
  const { t } = useTranslation();
  const { user } = useSnapshot(sessionStore);
  const { current } = useSnapshot(instanceStore);
  usePageHeader(t('DASHBOARD.TITLE'), current.name);
  return (
    <Stack data-testid="dashboard">
      <Title order={2}>{t('DASHBOARD.WELCOME', { name: user?.name ?? '' })}</Title>
      <Text c="dimmed">{t('DASHBOARD.INTRO', { instance: current.name })}</Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Tile to={paths.jobs} icon={<IconBriefcase size={20} />} title={t('MENU.JOBS')} text={t('DASHBOARD.JOBS_TEXT')} />
        <Tile to={paths.messages} icon={<IconMessages size={20} />} title={t('MENU.MESSAGES')} text={t('DASHBOARD.MESSAGES_TEXT')} />
        {user && <Tile to={toUserProfile(user.code)} icon={<IconUser size={20} />} title={t('SHELL.PROFILE')} text={t('DASHBOARD.PROFILE_TEXT')} />}
      </SimpleGrid>
    </Stack>
  );
}
