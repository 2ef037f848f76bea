import { Alert, Anchor, Badge, Button, Card, Group, SegmentedControl, Stack, Switch, Text, Title } from '@mantine/core';
import { IconCalendar, IconEdit, IconMessageQuestion, IconSend, IconEye } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import type { Job, JobRole } from '@/api/job.api';
import type { JobOffer } from '@/api/offer.api';
import { Spinner } from '@/components/loaders/loaders';
import { notify } from '@/components/notifications/notify';
import { UserAvatar } from '@/components/user-avatar/UserAvatar';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { roleOf, sessionStore } from '@/features/session/session.store';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { translateMessage } from '@/i18n/messages';
import { intlLocaleOf } from '@/i18n/languages';
import { paths, toJobOffer, toMessageGroup, toNewJobOffer, toUserProfile } from '@/routes/paths';
import { formatDeadline, isPast } from '../deadline';
import { toEditJob } from '../job-links';
import { offerEntry, seesAllOffers } from '../job-view-logic';
import { notifyFailure } from '../notify-failure';
import { languageName } from '../job-form';
import { loadJob, loadJobOffers, loadJobRoles, openJobFaq, setAcceptingOffers } from '../jobs.actions';
import { jobsStore } from '../jobs.store';
import { useJobLive } from '../hooks/useJobLive';
import { usePeople } from '../hooks/usePeople';
import { AcceptingBadge } from './AcceptingBadge';
import { JobOffersSection } from './JobOffersSection';

/** The version to show: the one picked, else the reader's language, else the one the server chose. */
function shownVersion(job: Job, picked: string | null, language: string) {
  return job.versions.find((v) => v.lang === picked) ?? job.versions.find((v) => v.lang === language) ?? job.versions.find((v) => v.lang === job.lang) ?? job.versions[0];
}

function RolesCard({ roles }: { roles: readonly JobRole[] | undefined }) {
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

/** What the reader may do: the customer edits and switches taking offers; anyone else makes or views their offer. */
function JobActions(props: { job: Job; isCustomer: boolean; me: string | null; offers: readonly JobOffer[] | undefined; onFaq: () => void; faqOpening: boolean }) {
  const { job, isCustomer, me, offers, onFaq, faqOpening } = props;
  const { t } = useTranslation();
  const { language } = useSnapshot(preferencesStore);
  const [switching, setSwitching] = useState(false);
  const entry = offerEntry(job, isCustomer, offers, me);

  const handleAccepting = async (accepting: boolean) => {
    setSwitching(true);
    try {
      await setAcceptingOffers(job, accepting, language);
      notify.success(accepting ? t('JOBS.ACCEPTING_ON') : t('JOBS.ACCEPTING_OFF'));
    } catch (err) {
      notifyFailure(err);
    } finally {
      setSwitching(false);
    }
  };

  return (
    <Group gap="sm" wrap="wrap" data-testid="job-actions">
      {entry.kind === 'customer' ? (
        <>
          <Button component={Link} to={toEditJob(job.code)} variant="default" leftSection={<IconEdit size={16} aria-hidden />} data-testid="job-edit">
            {t('JOBS.EDIT')}
          </Button>
          <Switch
            checked={job.acceptingOffers}
            disabled={switching}
            onChange={(e) => void handleAccepting(e.currentTarget.checked)}
            label={t('JOBS.ACCEPTING_SWITCH')}
            description={job.acceptingOffers ? t('JOBS.ACCEPTING_SWITCH_ON') : t('JOBS.ACCEPTING_SWITCH_OFF')}
            data-testid="job-accepting-switch"
          />
        </>
      ) : entry.kind === 'loading' ? null : entry.kind === 'view-mine' ? (
        <Button component={Link} to={toJobOffer(job.code, entry.offerCode)} leftSection={<IconEye size={16} aria-hidden />} data-testid="job-view-my-offer">
          {t('JOBS.VIEW_MY_OFFER')}
        </Button>
      ) : entry.kind === 'make' ? (
        <Button component={Link} to={toNewJobOffer(job.code)} leftSection={<IconSend size={16} aria-hidden />} data-testid="job-make-offer">
          {t('JOBS.MAKE_OFFER')}
        </Button>
      ) : (
        <Text c="dimmed" size="sm" data-testid="job-no-more-offers">
          {t('JOB.NOT_ACCEPTING_OFFERS')}
        </Text>
      )}
      <Button variant="light" leftSection={<IconMessageQuestion size={16} aria-hidden />} loading={faqOpening} onClick={onFaq} data-testid="job-faq">
        {t('JOBS.FAQ')}
      </Button>
    </Group>
  );
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
  const [faqOpening, setFaqOpening] = useState(false);
  const isCustomer = Boolean(job && job.customerCode === me);
  const locale = intlLocaleOf(language);
  const version = job ? shownVersion(job, picked, language) : null;
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
        {job.versions.length > 1 ? (
          <SegmentedControl
            value={version.lang}
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
              {job.deadline ? t('JOBS.DEADLINE_AT', { date: formatDeadline(job.deadline, locale) }) : t('JOBS.NO_DEADLINE')}
            </Text>
          </Group>
          <Text size="sm">{t('JOBS.POSTED_AT', { date: formatDeadline(job.createdAt, locale) })}</Text>
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

      <RolesCard roles={roles} />
    </Stack>
  );
}
