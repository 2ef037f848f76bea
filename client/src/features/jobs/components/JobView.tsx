import { Alert, Anchor, Badge, Card, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { IconCalendar } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { jobApi, type Job, type JobRole } from '@/api/job.api';
import type { JobOffer } from '@/api/offer.api';
import { Spinner } from '@/components/loaders/loaders';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { roleOf, sessionStore } from '@/features/session/session.store';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { type LanguageCode, intlLocaleOf } from '@/i18n/languages';
import { paths, toMessageGroup, toUserProfile } from '@/routes/paths';
import { formatDateTime, isPast } from '@/components/format/dates';
import { seesAllOffers } from '../job-view-logic';
import { notifyFailure } from '../notify-failure';
import { languageName } from '../job-form';
import { loadJob, loadJobOffers, loadJobRoles, openJobFaq } from '../jobs.actions';
import { jobsStore } from '../jobs.store';
import { useJobLive } from '../hooks/useJobLive';
import { usePeople } from '../hooks/usePeople';
import { AcceptingBadge } from './AcceptingBadge';
import { JobActions } from './JobActions';
import { MachineTranslationLine } from './JobMachineTranslation';
import { JobOffersSection } from './JobOffersSection';
import { JobRolesCard } from './JobRolesCard';

/** The version to show: the one picked, else the reader's language, else the one the server chose. */
function shownVersion(job: Job, picked: string | null, language: string) {
  return (
    job.versions.find((v) => v.lang === picked) ??
    job.versions.find((v) => v.lang === language) ??
    job.versions.find((v) => v.lang === job.lang) ??
    job.versions[0]
  );
}

/** The job's machine translation into the reader's language, asked for by a click and kept for this view only. */
function useMachineTranslation(code: string, language: LanguageCode) {
  const [texts, setTexts] = useState<{ title: string; description: string } | null>(null);
  const [state, setState] = useState<'none' | 'loading' | 'shown' | 'original'>('none');
  useEffect(() => {
    setTexts(null);
    setState('none');
  }, [code, language]);
  return {
    texts,
    state,
    translate: async () => {
      setState('loading');
      try {
        const answer = await jobApi.machineTranslation(code, language);
        setTexts({ title: answer.title, description: answer.description });
        setState('shown');
      } catch {
        // The error's own notice says why (off, no engine for the pair, try again).
        setState('none');
      }
    },
    toggle: () => setState((s) => (s === 'shown' ? 'original' : 'shown')),
  };
}

/** /jobs/{jobId}: the job in the reader's language (others one click away), its roles, FAQ chat and offers. */
export function JobView({ code }: { code: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { language } = useSnapshot(preferencesStore);
  const state = useSnapshot(jobsStore);
  const session = useSnapshot(sessionStore);
  const me = session.user?.code ?? null;
  const role = roleOf(session);
  const entry = state.entries[code];
  const job = entry?.state === 'loaded' ? (entry.job as Job) : null;
  const offers = state.offers[code] as JobOffer[] | undefined;
  const roles = state.roles[code] as JobRole[] | undefined;
  const [picked, setPicked] = useState<string | null>(null);
  const machine = useMachineTranslation(code, language);
  const [faqOpening, setFaqOpening] = useState(false);
  const isCustomer = Boolean(job && job.customerCode === me);
  const locale = intlLocaleOf(language);
  const stored = job ? shownVersion(job, picked, language) : null;
  // No version in the reader's language: a machine translation on request, shown in place of the version's texts.
  const untranslated = Boolean(job && !job.versions.some((v) => v.lang === language));
  const version = stored && untranslated && machine.state === 'shown' && machine.texts ? { ...stored, ...machine.texts, lang: language } : stored;
  const customer = usePeople(job ? [job.customerCode] : [])[job?.customerCode ?? ''];
  usePageHeader(version?.title || t('JOBS.JOB'), job ? t('JOBS.OFFER_COUNT', { count: job.offerCount }) : '');

  const refresh = useCallback(() => {
    void loadJob(code, language);
    void loadJobOffers(code, language).catch(() => undefined);
  }, [code, language]);

  useEffect(() => {
    void loadJob(code, language);
    void loadJobRoles(code, language).catch(() => undefined);
    void loadJobOffers(code, language).catch(() => undefined);
  }, [code, language]);
  useJobLive(code, refresh);

  const handleFaq = async () => {
    setFaqOpening(true);
    try {
      navigate(toMessageGroup(await openJobFaq(code)));
    } catch (err) {
      notifyFailure(err);
      setFaqOpening(false);
    }
  };

  if (!entry || entry.state === 'loading') return <Spinner />;
  if (entry.state === 'missing' || entry.state === 'failed' || !job || !version)
    return (
      <Alert color="red" title={entry.state === 'missing' ? t('JOB.NOT_FOUND') : t('JOBS.LOAD_FAILED')} data-testid="job-missing">
        <Anchor component={Link} to={paths.jobs}>
          {t('JOBS.BACK_TO_LIST')}
        </Anchor>
      </Alert>
    );

  return (
    <Stack gap="md" maw={960} data-testid="job-view" data-code={job.code} data-lang={version.lang}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs" align="flex-start">
          <Title order={2} fz="h3" lang={version.lang} style={{ overflowWrap: 'anywhere', minWidth: 0 }} data-testid="job-title">
            {version.title}
          </Title>
          <Group gap={6}>
            {isCustomer ? <Badge variant="outline">{t('JOBS.MINE_BADGE')}</Badge> : null}
            <AcceptingBadge accepting={job.acceptingOffers} />
          </Group>
        </Group>
        {untranslated ? (
          <MachineTranslationLine
            from={stored!.lang}
            to={language}
            state={machine.state}
            onTranslate={() => void machine.translate()}
            onToggle={machine.toggle}
          />
        ) : null}
        {job.versions.length > 1 ? (
          <SegmentedControl
            value={stored!.lang}
            onChange={setPicked}
            data={job.versions.map((v) => ({ value: v.lang, label: languageName(v.lang) }))}
            aria-label={t('JOBS.LANGUAGE_SWITCH')}
            style={{ alignSelf: 'flex-start', maxWidth: '100%', overflowX: 'auto' }}
            data-testid="job-language"
          />
        ) : null}
        <Group gap="md" wrap="wrap" c="dimmed">
          <Group gap={4} wrap="nowrap" c={isPast(job.deadline) ? 'red' : undefined}>
            <IconCalendar size={16} aria-hidden />
            <Text size="sm" data-testid="job-deadline">
              {job.deadline ? t('JOBS.DEADLINE_AT', { date: formatDateTime(job.deadline, locale) }) : t('JOBS.NO_DEADLINE')}
            </Text>
          </Group>
          <Text size="sm">{t('JOBS.POSTED_AT', { date: formatDateTime(job.createdAt, locale) })}</Text>
          {customer ? (
            <Anchor component={Link} to={toUserProfile(customer.code)} size="sm" data-testid="job-customer">
              {t('JOBS.CUSTOMER', { name: `${customer.name} ${customer.surname}`.trim() })}
            </Anchor>
          ) : null}
        </Group>
      </Stack>

      <JobActions job={job} isCustomer={isCustomer} me={me} offers={offers} onFaq={() => void handleFaq()} faqOpening={faqOpening} />

      <Card withBorder radius="md" padding="md">
        <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} lang={version.lang} data-testid="job-description">
          {version.description}
        </Text>
      </Card>

      {/* The offers come before the roles: they are what the customer comes back for. */}
      {seesAllOffers(isCustomer, role) ? <JobOffersSection jobCode={job.code} offers={offers} locale={locale} /> : null}

      <JobRolesCard roles={roles} />
    </Stack>
  );
}
