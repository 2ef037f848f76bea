import { Text, Timeline } from '@mantine/core';
import { IconCircleDot } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { OfferEvent } from '@/api/offer.api';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { formatDateTime } from '@/components/format/dates';
import { intlLocaleOf } from '@/i18n/languages';
import { historyText, isTimerCall } from '../offer-labels';
import { OfferStatusBadge } from './OfferStatusBadge';

/** Every move of the offer, oldest first: what happened, who did it, when (local time) and the status it led to. */
export function OfferHistory({ events, meCode }: { events: readonly OfferEvent[]; meCode: string | null }) {
  const { t } = useTranslation();
  const { language } = useSnapshot(preferencesStore);
  return (
    <Timeline active={events.length - 1} bulletSize={20} lineWidth={2} data-testid="offer-history" aria-label={t('OFFERS.HISTORY.TITLE')}>
      {events.map((e, i) => {
        const who = e.actor ? (e.actor.code === meCode ? t('OFFERS.YOU') : `${e.actor.name} ${e.actor.surname}`.trim()) : t('OFFERS.SOMEONE');
        return (
          <Timeline.Item
            key={`${i}-${e.at}`}
            bullet={<IconCircleDot size={12} aria-hidden />}
            title={
              <Text size="sm" fw={600}>
                {t(historyText(e.call, e.from))}
              </Text>
            }
            data-testid="offer-history-item"
            data-call={e.call}
            data-to={e.to}
          >
            <Text size="xs" c="dimmed">
              {isTimerCall(e.call)
                ? t('OFFERS.HISTORY.BY_TIMER', { at: formatDateTime(e.at, intlLocaleOf(language)) })
                : t('OFFERS.HISTORY.BY', { who, at: formatDateTime(e.at, intlLocaleOf(language)) })}
            </Text>
            <OfferStatusBadge status={e.to} size="xs" mt={4} data-testid="offer-history-status" />
          </Timeline.Item>
        );
      })}
    </Timeline>
  );
}
