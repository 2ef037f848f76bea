import { Alert, Anchor, Box, Button, Card, Grid, Group, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconClock, IconMessages } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { type JobOffer, type OfferEvent, offerApi } from '@/api/offer.api';
import { Spinner } from '@/components/loaders/loaders';
import { UserAvatar } from '@/components/user-avatar/UserAvatar';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { sessionStore } from '@/features/session/session.store';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { OfferReviewsCard } from '@/features/reviews/components/OfferReviewsCard';
import { TrackRecordLine } from '@/features/reviews/components/TrackRecordLine';
import { usePresence } from '@/realtime/usePresence';
import { paths, toMessageGroup, toUserProfile } from '@/routes/paths';
import { sideOf } from '../offer-actions';
import { otherPartyOf, useOfferParty } from '../useOfferParty';
import { formatDateTime } from '@/components/format/dates';
import { intlLocaleOf } from '@/i18n/languages';
import { formatPriceWithLocal } from '../offer-format';
import { offerStore } from '../offer.store';
import { useLiveOffer } from '../useLiveOffer';
import { JobSummary } from './JobSummary';
import { OfferActions } from './OfferActions';
import { OfferHistory } from './OfferHistory';
import { OfferLapse } from './OfferLapse';
import { OfferStatusBadge } from './OfferStatusBadge';

/** The offer's history, loaded again whenever the offer moves (its version or status changes). */
function useOfferHistory(offer: JobOffer | null): OfferEvent[] | null {
  const [events, setEvents] = useState<OfferEvent[] | null>(null);
  const jobCode = offer?.jobCode;
  const code = offer?.code;
  const version = offer?.version;
  const status = offer?.status;
  useEffect(() => {
    if (!jobCode || !code) return;
    let live = true;
    offerApi
      .events(jobCode, code)
      .then((rows) => live && setEvents(rows))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [jobCode, code, version, status]);
  return events;
}

function OtherParty({ code, role }: { code: string; role: 'provider' | 'customer' }) {
  const { t } = useTranslation();
  const user = useOfferParty(code);
  const presence = usePresence([code])[code] ?? null;
  return (
    <Group gap="sm" wrap="nowrap" data-testid="offer-other-party">
      {user ? <UserAvatar name={user.name} surname={user.surname} url={user.avatar?.url} presence={presence} size="md" /> : <Skeleton circle h={38} w={38} />}
      <Stack gap={0} miw={0}>
        <Text size="xs" c="dimmed">
          {role === 'provider' ? t('OFFERS.PROVIDER') : t('OFFERS.CUSTOMER')}
        </Text>
        {user ? (
          <Anchor component={Link} to={toUserProfile(code)} size="sm" fw={600} truncate>
            {`${user.name} ${user.surname}`.trim()}
          </Anchor>
        ) : (
          <Skeleton h={14} w={120} mt={4} />
        )}
        <TrackRecordLine userCode={code} size="xs" />
      </Stack>
    </Group>
  );
}

function Terms({ offer }: { offer: JobOffer }) {
  const { t } = useTranslation();
  const { language } = useSnapshot(preferencesStore);
  const money = formatPriceWithLocal(offer.price, offer.localPrice, language);
  return (
    <Stack gap={6}>
      <Group gap="xs" align="baseline" wrap="wrap">
        <Text size="sm" c="dimmed" w={90}>
          {t('OFFERS.PRICE')}
        </Text>
        <Text size="xl" fw={700} data-testid="offer-price">
          {money.price || t('OFFERS.NO_PRICE')}
        </Text>
        {money.local ? (
          <Text size="sm" c="dimmed" data-testid="offer-local-price">
            {t('OFFERS.LOCAL_PRICE', { price: money.local })}
          </Text>
        ) : null}
      </Group>
      <Group gap="xs" align="center" wrap="wrap">
        <Text size="sm" c="dimmed" w={90}>
          {t('OFFERS.DEADLINE')}
        </Text>
        <IconClock size={16} aria-hidden />
        <Text size="sm" fw={500} data-testid="offer-deadline">
          {offer.deadline ? formatDateTime(offer.deadline, intlLocaleOf(language)) : t('OFFERS.NO_DEADLINE')}
        </Text>
      </Group>
    </Stack>
  );
}

/** /jobs/{jobId}/offers/{offerCode}: the job, the terms, the moves this user may make, the chat and the history, all live. */
export function OfferViewPage({ jobCode, offerCode }: { jobCode: string; offerCode: string }) {
  const { t } = useTranslation();
  const me = useSnapshot(sessionStore).user?.code ?? null;
  const entry = useSnapshot(offerStore).byCode[offerCode];
  const offer = entry?.state === 'loaded' && entry.offer.jobCode === jobCode ? (entry.offer as JobOffer) : null;
  const events = useOfferHistory(offer);
  usePageHeader(t('OFFERS.VIEW.TITLE'), offer?.job?.title ?? '');

  useLiveOffer(offerCode);

  if (!entry || entry.state === 'loading') return <Spinner />;
  if (!offer) {
    return (
      <Alert color="gray" title={t('SHARED.JOB_OFFER.NOT_FOUND')} data-testid="offer-view-missing">
        <Anchor component={Link} to={paths.jobOffers}>
          {t('OFFERS.BACK_TO_OFFERS')}
        </Anchor>
      </Alert>
    );
  }
  const side = sideOf(offer, me);
  const other = otherPartyOf(offer, side);
  return (
    <Grid gap="md" data-testid="offer-view" data-status={offer.status} data-version={offer.version}>
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Stack gap="md">
          {offer.job ? <JobSummary job={offer.job} /> : null}
          <Card withBorder radius="md" padding="md" component="section" aria-labelledby="offer-terms-title">
            <Stack gap="md">
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <Title order={2} size="h4" id="offer-terms-title">
                  {side === 'provider' ? t('OFFERS.VIEW.MINE') : t('OFFERS.VIEW.OFFER')}
                </Title>
                {/* Moves by the other party arrive live; a screen reader hears the new status. */}
                <Box aria-live="polite" aria-atomic="true">
                  <VisuallyHidden>{t('OFFERS.STATUS')}</VisuallyHidden>
                  <OfferStatusBadge status={offer.status} size="lg" />
                </Box>
              </Group>
              <Terms offer={offer} />
              <OfferLapse status={offer.status} lapsesAt={offer.lapsesAt} />
              <OtherParty code={other.code} role={other.role} />
              <OfferActions offer={offer} side={side} />
            </Stack>
          </Card>
          <OfferReviewsCard offer={offer} meCode={me} otherCode={other.code} />
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Stack gap="md">
          {offer.groupCode ? (
            <Card withBorder radius="md" padding="md" component="section" aria-labelledby="offer-chat-title">
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <Stack gap={2} miw={0}>
                  <Title order={2} size="h5" id="offer-chat-title">
                    {t('OFFERS.CHAT_TITLE')}
                  </Title>
                  <Text size="xs" c="dimmed">
                    {t('OFFERS.CHAT_HINT')}
                  </Text>
                </Stack>
                <Button
                  component={Link}
                  to={toMessageGroup(offer.groupCode)}
                  leftSection={<IconMessages size={16} />}
                  variant="light"
                  style={{ flexShrink: 0 }}
                  data-testid="offer-open-chat"
                >
                  {t('OFFERS.OPEN_CHAT')}
                </Button>
              </Group>
            </Card>
          ) : null}
          <Card withBorder radius="md" padding="md" component="section" aria-labelledby="offer-history-title">
            <Title order={2} size="h5" mb="sm" id="offer-history-title">
              {t('OFFERS.HISTORY.TITLE')}
            </Title>
            {events ? <OfferHistory events={events} meCode={me} /> : <Skeleton h={80} />}
          </Card>
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
