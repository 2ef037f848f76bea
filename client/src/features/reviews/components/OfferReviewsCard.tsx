import { Alert, Card, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { JobOffer } from '@/api/offer.api';
import { type OfferReviews, type Review, reviewApi } from '@/api/review.api';
import { formatDateTime } from '@/components/format/dates';
import { OfferStatus } from '@/features/offers/offer-status';
import { chatStore } from '@/features/chat/chat.store';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { intlLocaleOf } from '@/i18n/languages';
import { loadTrackRecord } from '../track-record.store';
import { ReviewForm } from './ReviewForm';
import { ReviewItem } from './ReviewItem';

/** The offer note the server posts in the deal's chat when its reviews are published (told by its mark, offerNote). */
const PUBLISHED_NOTE = 'REVIEW.MESSAGE.PUBLISHED';

/**
 * The deal's reviews as the caller may see them, loaded when the offer closes, after each change, and again when
 * the publication note reaches the deal's chat live (the other party wrote theirs while this screen was open).
 * `otherCode`: the reviewed party, whose track record is loaded again then.
 */
function useOfferReviews(offer: JobOffer, otherCode: string): [OfferReviews | null, () => Promise<void>] {
  const [reviews, setReviews] = useState<OfferReviews | null>(null);
  const { jobCode, code, status } = offer;
  const last = useSnapshot(chatStore).groups[offer.groupCode ?? '']?.lastMessage;
  const publishedNote = last?.offerNote && last.message === PUBLISHED_NOTE ? last.code : null;
  const reload = useCallback(async () => {
    try {
      setReviews(await reviewApi.ofOffer(jobCode, code));
    } catch {
      setReviews(null);
    }
  }, [jobCode, code]);
  useEffect(() => {
    if (status !== OfferStatus.Closed) return;
    void reload();
    // Published: the reviewed party's rating changed too.
    if (publishedNote) void loadTrackRecord(otherCode, true);
  }, [reload, status, publishedNote, otherCode]);
  return [reviews, reload];
}

/**
 * Reviews of a closed deal on the offer view: the form while the caller may write, then their review (hidden
 * until both wrote or the window ends) and the other party's once published, with the one reply to it.
 * `otherCode` is the party the caller reviews, whose track record is refreshed when the reviews publish.
 */
export function OfferReviewsCard({ offer, meCode, otherCode }: { offer: JobOffer; meCode: string | null; otherCode: string }) {
  const { t } = useTranslation();
  const { language } = useSnapshot(preferencesStore);
  const [reviews, reload] = useOfferReviews(offer, otherCode);
  if (offer.status !== OfferStatus.Closed) return null;
  if (!reviews) return <Skeleton h={120} data-testid="offer-reviews-loading" />;
  // An offer withdrawn or rejected was no deal: nothing to review, nothing to show.
  if (!reviews.windowEndsAt && !reviews.mine && reviews.others.length === 0) return null;
  const until = reviews.windowEndsAt ? formatDateTime(reviews.windowEndsAt, intlLocaleOf(language)) : '';
  const windowOver = !!reviews.windowEndsAt && Date.parse(reviews.windowEndsAt) <= Date.now();

  const handleWrite = async (input: { rating: number; text: string }) => {
    await reviewApi.write(offer.jobCode, offer.code, input);
    await reload();
    void loadTrackRecord(otherCode, true);
  };
  const handleReplied = (_: Review) => void reload();

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="offer-reviews-title" data-testid="offer-reviews">
      <Stack gap="sm">
        <Title order={2} size="h5" id="offer-reviews-title">
          {t('REVIEWS.TITLE')}
        </Title>
        {reviews.canWrite ? (
          <>
            <Text size="sm" c="dimmed">
              {reviews.otherWritten ? t('REVIEWS.OTHER_WROTE', { until }) : t('REVIEWS.BLIND_HINT', { until })}
            </Text>
            <ReviewForm submitLabel={t('REVIEWS.FORM.SUBMIT')} onSubmit={handleWrite} />
          </>
        ) : null}
        {reviews.mine ? (
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              {t('REVIEWS.YOURS')}
            </Text>
            <ReviewItem review={reviews.mine} />
            {!reviews.mine.publishedAt ? (
              <Text size="xs" c="dimmed" data-testid="offer-reviews-waiting">
                {t('REVIEWS.WAITING', { until })}
              </Text>
            ) : null}
          </Stack>
        ) : null}
        {reviews.others.map((review) => (
          <Stack gap={4} key={review.code}>
            <Text size="sm" fw={600}>
              {review.subject.code === meCode ? t('REVIEWS.ABOUT_YOU') : t('REVIEWS.OF_DEAL')}
            </Text>
            <ReviewItem review={review} canReply={review.subject.code === meCode} onChange={handleReplied} />
          </Stack>
        ))}
        {!reviews.canWrite && !reviews.mine && windowOver ? (
          <Alert color="gray" variant="light" data-testid="offer-reviews-closed">
            {t('REVIEWS.WINDOW_CLOSED')}
          </Alert>
        ) : null}
      </Stack>
    </Card>
  );
}
