import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import { IconBriefcase, IconCalendar, IconClock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import type { Job } from '@/api/job.api';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { toJob } from '@/routes/paths';
import { formatDateTime, isPast } from '@/components/format/dates';
import { languageName } from '../job-form';
import { AcceptingBadge } from './AcceptingBadge';

/** One job of the list: title (a link to it), description, deadline, offers, taking offers, mine, posted. */
export function JobRow({ job, mine, locale }: { job: Job; mine: boolean; locale: string }) {
  const { t } = useTranslation();
  const language = useSnapshot(preferencesStore).language;
  return (
    <Card withBorder padding="md" radius="md" component="li" data-testid={`job-row-${job.code}`} data-code={job.code}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs" align="flex-start">
          <Text
            component={Link}
            to={toJob(job.code)}
            fw={600}
            size="lg"
            style={{ minWidth: 0, overflowWrap: 'anywhere', textDecoration: 'none', color: 'inherit' }}
            lang={job.lang || undefined}
            data-testid="job-row-title"
          >
            {job.title}
          </Text>
          <Group gap={6} wrap="wrap">
            {mine ? (
              <Badge variant="outline" data-testid="job-row-mine">
                {t('JOBS.MINE_BADGE')}
              </Badge>
            ) : null}
            {job.lang && job.lang !== language ? (
              <Badge variant="default" title={t('JOBS.SHOWN_IN', { language: languageName(job.lang) })}>
                {job.lang}
              </Badge>
            ) : null}
            <AcceptingBadge accepting={job.acceptingOffers} />
          </Group>
        </Group>
        <Text size="sm" c="dimmed" lineClamp={2} lang={job.lang || undefined}>
          {job.description}
        </Text>
        <Group gap="md" wrap="wrap">
          <Group gap={4} wrap="nowrap" c={isPast(job.deadline) ? 'red' : 'dimmed'}>
            <IconCalendar size={14} aria-hidden />
            <Text size="sm" data-testid="job-row-deadline">
              {job.deadline ? t('JOBS.DEADLINE_AT', { date: formatDateTime(job.deadline, locale) }) : t('JOBS.NO_DEADLINE')}
            </Text>
          </Group>
          <Group gap={4} wrap="nowrap" c="dimmed">
            <IconBriefcase size={14} aria-hidden />
            <Text size="sm" data-testid="job-row-offers">
              {t('JOBS.OFFER_COUNT', { count: job.offerCount })}
            </Text>
          </Group>
          <Group gap={4} wrap="nowrap" c="dimmed">
            <IconClock size={14} aria-hidden />
            <Text size="sm">{t('JOBS.POSTED_AT', { date: formatDateTime(job.createdAt, locale) })}</Text>
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}
