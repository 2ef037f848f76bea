import { Group, Skeleton, Text } from '@mantine/core';
import { IconStarFilled } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { TrackRecord } from '@/api/review.api';
import { intlLocaleOf } from '@/i18n/languages';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { formatAverage, replyTimeLabel } from '../reply-time';
import { loadTrackRecord, trackRecordStore } from '../track-record.store';

/** The parts of a track record as sentences: rating and count, completed deals, usual reply time (when known). */
export function useTrackRecordParts(record: TrackRecord): string[] {
  const { t } = useTranslation();
  const { language } = useSnapshot(preferencesStore);
  const rating =
    record.average === null
      ? t('REVIEWS.NO_REVIEWS')
      : t('REVIEWS.RATING', { average: formatAverage(record.average, intlLocaleOf(language)), count: record.count });
  const parts = [rating, t('REVIEWS.DEALS', { count: record.completedDeals })];
  if (record.replySeconds !== null) {
    const reply = replyTimeLabel(record.replySeconds);
    parts.push(t(reply.key, { count: reply.count }));
  }
  return parts;
}

function Line({ record, size }: { record: TrackRecord; size: 'xs' | 'sm' }) {
  const parts = useTrackRecordParts(record);
  return (
    <Group gap={4} wrap="nowrap" miw={0} data-testid="track-record" data-user={record.userCode}>
      <IconStarFilled size={size === 'xs' ? 12 : 14} color="var(--mantine-color-yellow-6)" aria-hidden style={{ flexShrink: 0 }} />
      {/* One line on a desktop; on a phone it wraps rather than hiding the reply time. */}
      <Text size={size} c="dimmed" miw={0}>
        {parts.join(' · ')}
      </Text>
    </Group>
  );
}

/**
 * Someone's rating, review count, completed deals and usual reply time in one line, loaded once per user and
 * shared by every screen that shows it. `size` (default 'sm') is the text size.
 */
export function TrackRecordLine({ userCode, size = 'sm' }: { userCode: string; size?: 'xs' | 'sm' }) {
  const entry = useSnapshot(trackRecordStore).byUser[userCode];
  useEffect(() => {
    void loadTrackRecord(userCode);
  }, [userCode]);
  if (!entry || entry.state === 'loading') return <Skeleton h={12} w={180} data-testid="track-record-loading" />;
  if (entry.state === 'missing') return null;
  return <Line record={entry.record as TrackRecord} size={size} />;
}
