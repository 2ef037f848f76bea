import { Alert, Anchor, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { type JobOffer, offerApi } from '@/api/offer.api';
import { Spinner } from '@/components/loaders/loaders';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { sessionStore } from '@/features/session/session.store';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { paths } from '@/routes/paths';
import { type OfferFilter, filterOffers, waitingFirst } from '../offer-lists';
import { OfferStatus, offerStatusLook } from '../offer-status';
import { useOfferChanges } from '../useLiveOffer';
import { offerStore } from '../offer.store';
import { OfferRow } from './OfferRow';

/** My offers and the offers on my jobs, loaded again after every offer:status push (pages of 100, "more" for the next). */
export function useMyOffers(): { offers: JobOffer[] | null; failed: boolean; hasMore: boolean; loadMore: () => void } {
  const { language } = useSnapshot(preferencesStore);
  const changes = useOfferChanges(useSnapshot(offerStore).pushes);
  const [pages, setPages] = useState(1);
  const [state, setState] = useState<{ offers: JobOffer[] | null; failed: boolean; hasMore: boolean }>({ offers: null, failed: false, hasMore: false });
  useEffect(() => {
    let live = true;
    Promise.all(Array.from({ length: pages }, (_, i) => offerApi.mine(language, i + 1)))
      .then((all) => live && setState({ offers: all.flatMap((p) => p.offers), failed: false, hasMore: all[all.length - 1].hasMore }))
      .catch(() => live && setState((s) => ({ ...s, failed: true })));
    return () => {
      live = false;
    };
  }, [language, changes, pages]);
  const loadMore = useCallback(() => setPages((p) => p + 1), []);
  return { ...state, loadMore };
}

const STATUSES = Object.values(OfferStatus);

/** /jobs/offers: my offers on either side, waiting-for-me first, then latest change first; filter by status. */
export function OffersListPage() {
  const { t } = useTranslation();
  const me = useSnapshot(sessionStore).user?.code ?? null;
  const { offers, failed, hasMore, loadMore } = useMyOffers();
  const [filter, setFilter] = useState<OfferFilter>('all');
  usePageHeader(t('MENU.JOB_OFFERS'), t('OFFERS.LIST.SUBTITLE'));
  const shown = useMemo(() => (offers ? waitingFirst(filterOffers(offers, filter, me), me) : []), [offers, filter, me]);
  const filterItems = [
    { value: 'all', label: t('OFFERS.LIST.ALL') },
    { value: 'waiting', label: t('OFFERS.LIST.WAITING') },
    ...STATUSES.map((s) => ({ value: String(s), label: t(offerStatusLook(s).label) })),
  ];

  if (failed && !offers) return <Alert color="red">{t('SHARED.ERROR.GENERIC')}</Alert>;
  if (!offers) return <Spinner />;
  return (
    <Stack gap="md" maw={960} data-testid="offers-list">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Select
          label={t('OFFERS.LIST.FILTER')}
          data={filterItems}
          value={filter}
          onChange={(v) => setFilter((v ?? 'all') as OfferFilter)}
          allowDeselect={false}
          w={{ base: '100%', xs: 260 }}
          data-testid="offers-filter"
        />
        <Text size="sm" c="dimmed" aria-live="polite" data-testid="offers-count">
          {t('OFFERS.LIST.COUNT', { count: shown.length })}
        </Text>
      </Group>
      {offers.length === 0 ? (
        <Alert color="gray" title={t('OFFERS.LIST.EMPTY')} data-testid="offers-empty">
          <Text size="sm">{t('OFFERS.LIST.EMPTY_HINT')}</Text>
          <Anchor component={Link} to={paths.jobs} size="sm">
            {t('OFFERS.BROWSE_JOBS')}
          </Anchor>
        </Alert>
      ) : shown.length === 0 ? (
        <Text c="dimmed" data-testid="offers-none-match">
          {t('OFFERS.LIST.NONE_MATCH')}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {shown.map((o) => (
            <li key={o.code}>
              <OfferRow offer={o} me={me} />
            </li>
          ))}
        </Stack>
      )}
      {hasMore ? (
        <Button variant="default" onClick={loadMore} data-testid="offers-more">
          {t('OFFERS.LIST.MORE')}
        </Button>
      ) : null}
    </Stack>
  );
}
