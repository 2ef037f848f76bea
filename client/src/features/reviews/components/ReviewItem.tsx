import { Anchor, Badge, Button, Group, Paper, Rating, Stack, Text, Textarea } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { REVIEW_TEXT_MAX_LENGTH, type Review, reviewApi } from '@/api/review.api';
import { formatDateTime } from '@/components/format/dates';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { intlLocaleOf } from '@/i18n/languages';
import { toUserProfile } from '@/routes/paths';

function ReplyForm({ review, onReplied }: { review: Review; onReplied: (review: Review) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    setBusy(true);
    try {
      onReplied(await reviewApi.reply(review.code, text.trim()));
    } catch {
      // Shown by the error handler; the text stays.
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={handleSubmit} data-testid="review-reply-form">
      <Stack gap={6}>
        <Textarea
          label={t('REVIEWS.REPLY.LABEL')}
          description={t('REVIEWS.REPLY.HINT')}
          autosize
          minRows={2}
          maxLength={REVIEW_TEXT_MAX_LENGTH}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          data-testid="review-reply-text"
        />
        <Group justify="flex-end">
          <Button type="submit" size="compact-sm" variant="light" loading={busy} disabled={!text.trim()} data-testid="review-reply-submit">
            {t('REVIEWS.REPLY.SEND')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * One review: stars, author (with their side of the deal), date, text and the reply. `canReply` (default false)
 * offers the reviewed party their one reply; `onChange` gets the review after it.
 */
export function ReviewItem({ review, canReply = false, onChange }: { review: Review; canReply?: boolean; onChange?: (review: Review) => void }) {
  const { t } = useTranslation();
  const { language } = useSnapshot(preferencesStore);
  const locale = intlLocaleOf(language);
  return (
    <Paper withBorder radius="md" p="sm" data-testid="review" data-code={review.code} data-published={review.publishedAt ? 'true' : 'false'}>
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Group gap="xs" wrap="wrap" miw={0}>
            <Rating value={review.rating} readOnly size="sm" aria-label={t('REVIEWS.STARS', { count: review.rating })} data-testid="review-rating" />
            <Anchor component={Link} to={toUserProfile(review.author.code)} size="sm" fw={600}>
              {`${review.author.name} ${review.author.surname}`.trim()}
            </Anchor>
            <Text size="xs" c="dimmed">
              {review.authorRole === 'customer' ? t('REVIEWS.AS_CUSTOMER') : t('REVIEWS.AS_PROVIDER')}
            </Text>
          </Group>
          {review.publishedAt ? (
            <Text size="xs" c="dimmed">
              {formatDateTime(review.publishedAt, locale)}
            </Text>
          ) : (
            <Badge variant="light" color="gray" data-testid="review-hidden">
              {t('REVIEWS.HIDDEN')}
            </Badge>
          )}
        </Group>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="review-text">
          {review.text}
        </Text>
        {review.reply ? (
          <Paper bg="var(--mantine-color-default-hover)" radius="sm" p="xs" ml="md" data-testid="review-reply">
            <Text size="xs" fw={600}>
              {t('REVIEWS.REPLY.FROM', { name: `${review.subject.name} ${review.subject.surname}`.trim() })}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {review.reply.text}
            </Text>
          </Paper>
        ) : canReply && review.publishedAt ? (
          <ReplyForm review={review} onReplied={(r) => onChange?.(r)} />
        ) : null}
      </Stack>
    </Paper>
  );
}
