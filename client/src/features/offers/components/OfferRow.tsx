import { Badge, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconClock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import type { JobOffer } from '@/api/offer.api';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { toJobOffer } from '@/routes/paths';
import { tk } from '@/i18n/i18n';
import { UserAvatar } from '@/components/user-avatar/UserAvatar';
import { sideOf, waitsFor } from '../offer-actions';
import { otherPartyOf, useOfferParty } from '../useOfferParty';
import { formatDateTime } from '@/components/format/dates';
import { intlLocaleOf } from '@/i18n/languages';
import { formatPriceWithLocal } from '../offer-format';
import { OfferStatusBadge } from './OfferStatusBadge';

/** The other party of a row: avatar and name, "Provider: …" or "Customer: …" (a placeholder while loading). */
function RowParty({ offer, side }: { offer: JobOffer; side: ReturnType<typeof sideOf> }) {
  const { t } = useTranslation();
  const other = otherPartyOf(offer, side);
  const user = useOfferParty(other.code);
  const name = user ? `${user.name} ${user.surname}`.trim() : '…';
  return (
    <Group gap={6} wrap="nowrap" miw={0} data-testid="offer-row-party" data-code={other.code}>
      <UserAvatar name={user?.name ?? ''} surname={user?.surname ?? ''} url={user?.avatar?.url} size="sm" />
      <Text size="sm" truncate>
        {t(other.role === 'provider' ? tk('OFFERS.LIST.PROVIDER') : tk('OFFERS.LIST.CUSTOMER'), { name })}
      </Text>
    </Group>
  );
}

/** One offer in a list: the job's title, the other party, my side, price, deadline, status and a "your move" mark; the whole row opens it. */
export function OfferRow({ offer, me }: { offer: JobOffer; me: string | null }) {
  const { t } = useTranslation();
  const { language } = useSnapshot(preferencesStore);
  const side = sideOf(offer, me);
  const waiting = waitsFor(offer, me);
  const money = formatPriceWithLocal(offer.price, offer.localPrice, language);
  const title = offer.job?.title || t('OFFER.OFFER');
  return (
    <Paper withBorder radius="md" p="sm" data-testid="offer-row" data-code={offer.code} data-status={offer.status} data-waiting={waiting}>
      <UnstyledButton component={Link} to={toJobOffer(offer.jobCode, offer.code)} display="block" w="100%">
        <Group justify="space-between" wrap="wrap" gap="xs" align="flex-start">
          <Stack gap={2} miw={0} style={{ flex: '1 1 240px' }}>
            <Text fw={600} truncate>
              {title}
            </Text>
            <RowParty offer={offer} side={side} />
            <Group gap="xs" wrap="wrap">
              <Text size="xs" c="dimmed">
                {side === 'provider' ? t('OFFERS.LIST.AS_PROVIDER') : side === 'customer' ? t('OFFERS.LIST.AS_CUSTOMER') : ''}
              </Text>
              {offer.deadline ? (
                <Group gap={4} c="dimmed">
                  <IconClock size={12} aria-hidden />
                  <Text size="xs">{formatDateTime(offer.deadline, intlLocaleOf(language))}</Text>
                </Group>
              ) : null}
            </Group>
          </Stack>
          <Group gap="xs" wrap="wrap" justify="flex-end" style={{ flexShrink: 0, maxWidth: '100%' }}>
            <Stack gap={0} align="flex-end">
              <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }} data-testid="offer-row-price">
                {money.price || t('OFFERS.NO_PRICE')}
              </Text>
              {money.local ? (
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {money.local}
                </Text>
              ) : null}
            </Stack>
            {waiting ? (
              <Badge color="blue" variant="filled" data-testid="offer-row-waiting">
                {t('OFFERS.YOUR_MOVE')}
              </Badge>
            ) : null}
            <OfferStatusBadge status={offer.status} />
          </Group>
        </Group>
      </UnstyledButton>
    </Paper>
  );
}
