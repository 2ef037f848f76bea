import { Anchor, Badge, Card, Group, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBriefcase, IconCash, IconFileDollar, IconMessages } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { chatStore } from '@/features/chat/chat.store';
import { instanceStore } from '@/features/instance/instance.store';
import { OfferStatusBadge } from '@/features/offers/components/OfferStatusBadge';
import { formatOfferMoney } from '@/features/offers/offer-format';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { sessionStore } from '@/features/session/session.store';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { paths, toJob, toJobOffer } from '@/routes/paths';
import { useDashboard } from './useDashboard';

/** How many items a card lists before "all" links to its screen. */
const SHOWN = 3;

function DashCard({
  to,
  icon,
  title,
  count,
  countLabel,
  testId,
  children,
}: {
  to: string;
  icon: ReactNode;
  title: string;
  count: number | null;
  countLabel: string;
  testId: string;
  children?: ReactNode;
}) {
  return (
    <Card withBorder padding="lg" radius="md" data-testid={testId} data-count={count ?? ''} component="section" aria-label={title}>
      <Group justify="space-between" wrap="nowrap" mb="xs">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" size="lg" aria-hidden>
            {icon}
          </ThemeIcon>
          <Anchor component={Link} to={to} fw={600} c="inherit" data-testid={`${testId}-link`}>
            {title}
          </Anchor>
        </Group>
        {count === null ? (
          <Skeleton h={22} w={32} />
        ) : (
          <Badge size="lg" variant={count > 0 ? 'filled' : 'light'} color={count > 0 ? undefined : 'gray'} aria-label={countLabel}>
            {count}
          </Badge>
        )}
      </Group>
      <Stack gap={6}>{children}</Stack>
    </Card>
  );
}

/** The dashboard: my open jobs, offers waiting for my move, unread chats and payments due, each linking to its screen; live. */
export function DashboardPage() {
  const { t } = useTranslation();
  const { user } = useSnapshot(sessionStore);
  const { current } = useSnapshot(instanceStore);
  const { language } = useSnapshot(preferencesStore);
  const unread = useSnapshot(chatStore).unread;
  const me = user?.code ?? null;
  const { data } = useDashboard(me);
  usePageHeader(t('DASHBOARD.TITLE'), current.name);
  const unreadChats = Object.values(unread.groups).filter((n) => n > 0).length;
  const dueTotal = data?.due.length ? data.due.map((o) => formatOfferMoney(o.price, language)).join(', ') : '';
  return (
    <Stack data-testid="dashboard">
      <Title order={2}>{t('DASHBOARD.WELCOME', { name: user?.name ?? '' })}</Title>
      <Text c="dimmed">{t('DASHBOARD.INTRO', { instance: current.name })}</Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <DashCard
          to={paths.jobOffers}
          icon={<IconFileDollar size={20} />}
          title={t('DASHBOARD.WAITING')}
          count={data ? data.waiting.length : null}
          countLabel={t('DASHBOARD.WAITING_COUNT', { count: data?.waiting.length ?? 0 })}
          testId="dashboard-waiting"
        >
          {data?.waiting.slice(0, SHOWN).map((o) => (
            <Group key={o.code} justify="space-between" wrap="nowrap" gap="xs">
              <Anchor component={Link} to={toJobOffer(o.jobCode, o.code)} size="sm" truncate data-testid="dashboard-waiting-item">
                {o.job?.title || t('OFFER.OFFER')}
              </Anchor>
              <OfferStatusBadge status={o.status} size="sm" />
            </Group>
          ))}
          {data ? (
            <Text size="sm" c={data.waiting.length ? undefined : 'dimmed'} data-testid="dashboard-waiting-summary">
              {data.waiting.length ? t('DASHBOARD.WAIT_FOR_YOU', { count: data.waiting.length }) : t('DASHBOARD.NOTHING_WAITING')}
            </Text>
          ) : null}
          {data?.waitingOther ? (
            <Text size="sm" c="dimmed" data-testid="dashboard-waiting-other">
              {t('DASHBOARD.WAIT_FOR_OTHER', { count: data.waitingOther })}
            </Text>
          ) : null}
        </DashCard>
        <DashCard
          to={paths.jobPayments}
          icon={<IconCash size={20} />}
          title={t('DASHBOARD.PAYMENTS_DUE')}
          count={data ? data.due.length : null}
          countLabel={t('DASHBOARD.PAYMENTS_DUE_COUNT', { count: data?.due.length ?? 0 })}
          testId="dashboard-due"
        >
          {data?.due.length ? (
            <Text size="sm" data-testid="dashboard-due-amounts">
              {t('DASHBOARD.DUE_AMOUNTS', { amounts: dueTotal })}
            </Text>
          ) : null}
          {data && data.due.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('DASHBOARD.NOTHING_DUE')}
            </Text>
          ) : null}
        </DashCard>
        <DashCard
          to={paths.messages}
          icon={<IconMessages size={20} />}
          title={t('DASHBOARD.UNREAD')}
          count={unread.total}
          countLabel={t('CHAT.UNREAD', { count: unread.total })}
          testId="dashboard-unread"
        >
          <Text size="sm" c="dimmed">
            {unread.total > 0 ? t('DASHBOARD.UNREAD_CHATS', { count: unreadChats }) : t('DASHBOARD.NOTHING_UNREAD')}
          </Text>
        </DashCard>
        <DashCard
          to={paths.jobs}
          icon={<IconBriefcase size={20} />}
          title={t('DASHBOARD.OPEN_JOBS')}
          count={data ? data.openJobs.length : null}
          countLabel={t('DASHBOARD.OPEN_JOBS_COUNT', { count: data?.openJobs.length ?? 0 })}
          testId="dashboard-jobs"
        >
          {data?.openJobs.slice(0, SHOWN).map((j) => (
            <Anchor key={j.code} component={Link} to={toJob(j.code)} size="sm" truncate data-testid="dashboard-job-item">
              {j.title}
            </Anchor>
          ))}
          {data && data.openJobs.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('DASHBOARD.NO_OPEN_JOBS')}
            </Text>
          ) : null}
        </DashCard>
      </SimpleGrid>
    </Stack>
  );
}
