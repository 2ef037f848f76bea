import { Alert, Button, Group, Loader, Text } from '@mantine/core';
import { IconFileDollar } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { toJobOffer } from '@/routes/paths';
import { formatOfferMoney } from '../offer-format';
import { loadOffer, offerStore } from '../offer.store';
import { OfferStatusBadge } from './OfferStatusBadge';

/**
 * The job offer thumbnail (spec section 2): a loader while the offer loads, the 'not found' notice when it cannot
 * be loaded, else the job's title, the price, the status badge and a View button to the offer. Live: it reads the
 * offer store that `offer:status` pushes move on. `compact` (default false) fits it in one bar line; `testIds`
 * (default 'chat-info') prefixes the test ids of its parts (-price, -status, -view, -missing). `current` false leaves
 * out the offer's price and status now (an offer note's card shows its own event's instead).
 */
export function JobOfferThumbnail({
  offerCode,
  compact = false,
  current = true,
  testIds = 'chat-info',
}: {
  offerCode: string;
  compact?: boolean;
  current?: boolean;
  testIds?: string;
}) {
  const { t } = useTranslation();
  const { language } = useSnapshot(preferencesStore);
  const entry = useSnapshot(offerStore).byCode[offerCode];
  // Loaded once; again when a push made the store forget an offer it had found missing.
  const held = Boolean(entry);
  useEffect(() => {
    if (!held) void loadOffer(offerCode);
  }, [offerCode, held]);

  if (!entry || entry.state === 'loading') {
    return (
      <Group gap="xs" justify="space-between" wrap="nowrap" data-testid="offer-thumbnail" data-state="loading" style={{ flex: 1 }}>
        <Group gap="xs" wrap="nowrap">
          <IconFileDollar size={18} aria-hidden />
          <Text size="sm">{t('OFFER.OFFER')}</Text>
        </Group>
        <Loader size="xs" aria-label={t('OFFER.LOADING')} />
      </Group>
    );
  }
  if (entry.state !== 'loaded') {
    const notice = (
      <Group gap="xs" wrap="nowrap">
        <IconFileDollar size={18} aria-hidden />
        <Text size="sm" c="dimmed" data-testid={`${testIds}-missing`}>
          {t('SHARED.JOB_OFFER.NOT_FOUND')}
        </Text>
      </Group>
    );
    return compact ? (
      <Group data-testid="offer-thumbnail" data-state="missing" style={{ flex: 1 }}>
        {notice}
      </Group>
    ) : (
      <Alert color="gray" variant="light" p="xs" data-testid="offer-thumbnail" data-state="missing" role="status">
        {notice}
      </Alert>
    );
  }
  const { offer } = entry;
  return (
    <Group
      gap="sm"
      wrap="nowrap"
      justify="space-between"
      preventGrowOverflow={false}
      style={{ flex: 1, minWidth: 0 }}
      data-testid="offer-thumbnail"
      data-state="loaded"
      data-status={offer.status}
    >
      <Group gap="xs" wrap="wrap" miw={0} style={{ flex: 1, rowGap: 2 }} preventGrowOverflow={false}>
        <Group gap="xs" wrap="nowrap" miw={0} maw="100%" preventGrowOverflow={false}>
          <IconFileDollar size={18} aria-hidden style={{ flexShrink: 0 }} />
          <Text size="sm" fw={600} truncate miw={0}>
            {offer.job?.title ? t('OFFER.OFFER_FOR', { title: offer.job.title }) : t('OFFER.OFFER')}
          </Text>
        </Group>
        <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
          {current && offer.price ? (
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid={`${testIds}-price`}>
              {formatOfferMoney(offer.price, language)}
            </Text>
          ) : null}
          {current ? <OfferStatusBadge status={offer.status} data-testid={`${testIds}-status`} /> : null}
        </Group>
      </Group>
      <Button
        component={Link}
        to={toJobOffer(offer.jobCode, offer.code)}
        size="compact-sm"
        variant="light"
        style={{ flexShrink: 0 }}
        aria-label={t('OFFER.VIEW_OFFER')}
        data-testid={`${testIds}-view`}
      >
        {t('OFFER.VIEW')}
      </Button>
    </Group>
  );
}
