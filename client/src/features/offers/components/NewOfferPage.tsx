import { Alert, Anchor, Card, Stack, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { type JobOffer, type JobSummary as Job, type OfferTermsInput, offerApi } from '@/api/offer.api';
import { Spinner } from '@/components/loaders/loaders';
import { notify } from '@/components/notifications/notify';
import { jobInLanguage } from '@/features/jobs/job-updates';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { realtimeConnection } from '@/realtime/RealtimeConnection';
import { subscribeSocket } from '@/realtime/subscribe';
import { sessionStore } from '@/features/session/session.store';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { paths, toJob, toJobOffer } from '@/routes/paths';
import { makeOffer } from '../offer.actions';
import { OfferStatus } from '../offer-status';
import { JobSummary } from './JobSummary';
import { OfferForm } from './OfferForm';

type Loaded = { state: 'loading' } | { state: 'missing' } | { state: 'loaded'; job: Job; open: JobOffer | null };

/** /jobs/{jobId}/offers/new: the job, and the form that makes and prices the offer in one action. */
export function NewOfferPage({ jobCode }: { jobCode: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { language } = useSnapshot(preferencesStore);
  const me = useSnapshot(sessionStore).user?.code ?? null;
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  usePageHeader(t('OFFERS.NEW.TITLE'), loaded.state === 'loaded' ? loaded.job.title : '');

  useEffect(() => {
    let live = true;
    Promise.all([offerApi.job(jobCode, language), offerApi.ofJob(jobCode, language).catch(() => null)])
      .then(([job, mine]) => {
        const open = mine?.offers.find((o) => o.providerCode === me && o.status !== OfferStatus.Closed) ?? null;
        if (live) setLoaded({ state: 'loaded', job, open });
      })
      .catch(() => live && setLoaded({ state: 'missing' }));
    return () => {
      live = false;
    };
  }, [jobCode, language, me]);

  // The customer's 'taking offers' switch and edits show here as they are saved (the form goes when offers stop).
  useEffect(
    () =>
      subscribeSocket(realtimeConnection().connect(), {
        'job:updated': (pushed) => {
          if (pushed.code !== jobCode) return;
          setLoaded((held) => (held.state === 'loaded' ? { ...held, job: jobInLanguage(pushed, preferencesStore.language) } : held));
        },
      }),
    [jobCode],
  );

  const handleSubmit = async (terms: OfferTermsInput, message: string) => {
    // A double click must not send the offer twice (the second would only meet "you already have an open offer").
    if (sending.current) return;
    sending.current = true;
    setBusy(true);
    setRefusal(null);
    const result = await makeOffer(jobCode, { ...terms, ...(message ? { message } : {}) });
    sending.current = false;
    setBusy(false);
    if ('offer' in result) {
      notify.success(t('OFFERS.NEW.MADE'));
      navigate(toJobOffer(jobCode, result.offer.code), { replace: true });
      return;
    }
    // 422 rules were shown by the one error handler; other refusals (409, 403) are explained here, once: inline.
    if (!result.shown) {
      setRefusal(result.messages[0]);
      // What changed meanwhile (offers stopped while the socket was away) shows in place of the form.
      void offerApi
        .job(jobCode, language)
        .then((job) => setLoaded((held) => (held.state === 'loaded' ? { ...held, job } : held)))
        .catch(() => undefined);
    }
  };

  if (loaded.state === 'loading') return <Spinner />;
  if (loaded.state === 'missing') {
    return (
      <Alert color="gray" title={t('JOB.NOT_FOUND')} data-testid="offer-new-missing">
        <Anchor component={Link} to={paths.jobs}>
          {t('OFFERS.BACK_TO_JOBS')}
        </Anchor>
      </Alert>
    );
  }
  const { job, open } = loaded;
  const own = job.customerCode === me;
  return (
    <Stack maw={720} gap="md" data-testid="offer-new">
      <JobSummary job={job} />
      {own ? (
        <Alert color="yellow" data-testid="offer-new-refused">
          {t('JOB_OFFER.OWN_JOB')}
        </Alert>
      ) : open ? (
        <Alert color="blue" data-testid="offer-new-open">
          {t('JOB_OFFER.ALREADY_EXISTS')}{' '}
          <Anchor component={Link} to={toJobOffer(jobCode, open.code)} data-testid="offer-new-open-link">
            {t('OFFERS.VIEW_MY_OFFER')}
          </Anchor>
        </Alert>
      ) : !job.acceptingOffers ? (
        <Alert color="yellow" data-testid="offer-new-refused">
          {t('JOB.NOT_ACCEPTING_OFFERS')}{' '}
          <Anchor component={Link} to={toJob(jobCode)}>
            {t('OFFERS.BACK_TO_JOB')}
          </Anchor>
        </Alert>
      ) : (
        <Card withBorder radius="md" padding="md" component="section" aria-labelledby="offer-new-title">
          <Title order={2} size="h4" mb="sm" id="offer-new-title">
            {t('OFFERS.NEW.FORM_TITLE')}
          </Title>
          {refusal ? (
            <Alert color="red" mb="sm" data-testid="offer-new-error" role="alert">
              {refusal}
            </Alert>
          ) : null}
          <OfferForm mode="create" busy={busy} onSubmit={(terms, message) => void handleSubmit(terms, message)} />
        </Card>
      )}
    </Stack>
  );
}
