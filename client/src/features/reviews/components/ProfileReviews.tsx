import { Button, Card, Group, Rating, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { type Review, type TrackRecord, reviewApi } from '@/api/review.api';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { intlLocaleOf } from '@/i18n/languages';
import { formatAverage } from '../reply-time';
import { loadTrackRecord, trackRecordStore } from '../track-record.store';
import { useTrackRecordParts } from './TrackRecordLine';
import { ReviewItem } from './ReviewItem';

function Summary({ record }: { record: TrackRecord }) {
  const { t } = useTranslation();
  const { language } = useSnapshot(preferencesStore);
  const [, ...rest] = useTrackRecordParts(record);
  return (
    <Group gap="lg" wrap="wrap" data-testid="profile-rating">
      {record.average !== null ? (
        <Group gap="xs" wrap="nowrap">
          <Text fz={32} fw={700} lh={1} data-testid="profile-rating-average">
            {formatAverage(record.average, intlLocaleOf(language))}
          </Text>
          <Stack gap={2}>
            <Rating value={record.average} fractions={10} readOnly size="sm" aria-hidden />
            <Text size="xs" c="dimmed" data-testid="profile-rating-count">
              {t('REVIEWS.COUNT', { count: record.count })}
            </Text>
          </Stack>
        </Group>
      ) : (
        <Text c="dimmed" data-testid="profile-rating-none">
          {t('REVIEWS.NO_REVIEWS')}
        </Text>
      )}
      <Stack gap={2}>
        {rest.map((part) => (
          <Text size="sm" key={part}>
            {part}
          </Text>
        ))}
      </Stack>
    </Group>
  );
}

/** The profile's reviews: the published ones about the user, newest first, 20 at a time; on one's own profile, the one reply each. */
export function ProfileReviews({ userCode, isOwn }: { userCode: string; isOwn: boolean }) {
  const { t } = useTranslation();
  const entry = useSnapshot(trackRecordStore).byUser[userCode];
  const [reviews, setReviews] = useState<Review[] | null>(null);
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(false);

  const load = useCallback(
    async (wanted: number) => {
      try {
        const answer = await reviewApi.about(userCode, wanted);
        setReviews((held) => (wanted === 1 ? answer.reviews : [...(held ?? []), ...answer.reviews]));
        setHasMore(answer.hasMore);
        setPage(wanted);
      } catch {
        setReviews((held) => held ?? []);
      }
    },
    [userCode],
  );
  useEffect(() => {
    setReviews(null);
    void load(1);
    void loadTrackRecord(userCode, true);
  }, [load, userCode]);

  const handleChange = (changed: Review) => setReviews((held) => (held ?? []).map((r) => (r.code === changed.code ? changed : r)));

  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="profile-reviews-title" data-testid="profile-reviews">
      <Stack gap="md">
        <Title order={4} id="profile-reviews-title">
          {t('REVIEWS.PROFILE_TITLE')}
        </Title>
        {entry?.state === 'loaded' ? <Summary record={entry.record as TrackRecord} /> : <Skeleton h={40} />}
        {reviews === null ? (
          <Skeleton h={80} />
        ) : (
          reviews.map((review) => <ReviewItem key={review.code} review={review} canReply={isOwn} onChange={handleChange} />)
        )}
        {hasMore ? (
          <Group justify="center">
            <Button variant="subtle" onClick={() => void load(page + 1)} data-testid="profile-reviews-more">
              {t('REVIEWS.MORE')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}
