import { Button, Group, Switch, Text } from '@mantine/core';
import { IconEdit, IconEye, IconMessageQuestion, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import type { Job } from '@/api/job.api';
import type { JobOffer } from '@/api/offer.api';
import { notify } from '@/components/notifications/notify';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { toJobOffer, toNewJobOffer } from '@/routes/paths';
import { toEditJob } from '../job-links';
import { offerEntry } from '../job-view-logic';
import { setAcceptingOffers } from '../jobs.actions';
import { notifyFailure } from '../notify-failure';

/** What the reader may do: the customer edits and switches taking offers; anyone else makes or views their offer. */
export function JobActions(props: {
  job: Job;
  isCustomer: boolean;
  me: string | null;
  offers: readonly JobOffer[] | undefined;
  onFaq: () => void;
  faqOpening: boolean;
}) {
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
