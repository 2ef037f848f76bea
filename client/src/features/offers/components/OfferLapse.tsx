import { Group, Text } from '@mantine/core';
import { IconHourglass } from '@tabler/icons-react';
import { useSnapshot } from 'valtio';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/components/format/dates';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { intlLocaleOf } from '@/i18n/languages';
import { OfferStatus } from '../offer-status';

const DAY_MS = 86_400_000;

/**
 * When the offer's current wait lapses ("Expires in 13 days"; a finalisation request: "Accepted automatically
 * in …"), with the exact time on hover; nothing when the wait never lapses. `now` (default: the current time) is
 * for tests.
 */
export function OfferLapse({ status, lapsesAt, now = Date.now() }: { status: number; lapsesAt: string | null; now?: number }) {
  const { t } = useTranslation();
  const { language } = useSnapshot(preferencesStore);
  if (!lapsesAt) return null;
  const days = Math.floor((new Date(lapsesAt).getTime() - now) / DAY_MS);
  const accepts = status === OfferStatus.FinalizeRequested;
  let text: string;
  if (accepts) text = days >= 1 ? t('OFFERS.LAPSE.AUTO_ACCEPT', { count: days }) : t('OFFERS.LAPSE.AUTO_ACCEPT_SOON');
  else text = days >= 1 ? t('OFFERS.LAPSE.EXPIRES', { count: days }) : t('OFFERS.LAPSE.EXPIRES_SOON');
  return (
    <Group gap={6} wrap="nowrap" data-testid="offer-lapse" data-lapses-at={lapsesAt}>
      <IconHourglass size={16} aria-hidden />
      <Text size="sm" c="dimmed" title={formatDateTime(lapsesAt, intlLocaleOf(language))}>
        {text}
      </Text>
    </Group>
  );
}
