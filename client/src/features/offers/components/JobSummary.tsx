import { Anchor, Card, Group, Spoiler, Stack, Text, Title } from '@mantine/core';
import { IconBriefcase, IconClock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { toJob } from '@/routes/paths';
import { formatDateTime } from '@/components/format/dates';
import { intlLocaleOf } from '@/i18n/languages';

export interface JobSummaryValue {
  code: string;
  title: string;
  description: string;
  deadline: string | null;
}

/** What the offer is about: the job's title (linking to the job), its description and its deadline in local time. */
export function JobSummary({ job }: { job: JobSummaryValue }) {
  const { t } = useTranslation();
  const { language } = useSnapshot(preferencesStore);
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-label={t('OFFERS.JOB_SUMMARY')} data-testid="offer-job-summary">
      <Stack gap={6}>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <IconBriefcase size={20} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
          <Title order={3} size="h4" style={{ overflowWrap: 'anywhere' }}>
            <Anchor component={Link} to={toJob(job.code)} inherit data-testid="offer-job-link">
              {job.title}
            </Anchor>
          </Title>
        </Group>
        {job.description ? (
          <Spoiler maxHeight={72} showLabel={t('OFFERS.MORE')} hideLabel={t('OFFERS.LESS')}>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {job.description}
            </Text>
          </Spoiler>
        ) : null}
        {job.deadline ? (
          <Group gap={6} c="dimmed">
            <IconClock size={16} aria-hidden />
            <Text size="sm">{t('OFFERS.JOB_DEADLINE', { deadline: formatDateTime(job.deadline, intlLocaleOf(language)) })}</Text>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}
