import { Button, Group, Input, Rating, Stack, Textarea } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REVIEW_TEXT_MAX_LENGTH, type ReviewInput } from '@/api/review.api';

/**
 * Stars and a text, both required. `submitLabel` names the button; `onSubmit` sends the review and rejects on a
 * refusal (the one error handler has said why), so the form keeps what was typed.
 */
export function ReviewForm({ submitLabel, onSubmit }: { submitLabel: string; onSubmit: (review: ReviewInput) => Promise<unknown> }) {
  const { t } = useTranslation();
  const [rating, setRating] = useState(0);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  const ratingError = tried && rating < 1 ? t('REVIEWS.FORM.RATING_REQUIRED') : null;
  const textError = tried && !text.trim() ? t('REVIEWS.FORM.TEXT_REQUIRED') : null;

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (rating < 1 || !text.trim()) return;
    setBusy(true);
    try {
      await onSubmit({ rating, text: text.trim() });
    } catch {
      // The error handler has shown the refusal; what was typed stays.
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={handleSubmit} noValidate data-testid="review-form">
      <Stack gap="sm">
        <Input.Wrapper label={t('REVIEWS.FORM.RATING')} required error={ratingError} labelElement="div" labelProps={{ id: 'review-rating-label' }}>
          <Rating
            value={rating}
            onChange={setRating}
            size="lg"
            role="radiogroup"
            aria-labelledby="review-rating-label"
            getSymbolLabel={(value) => t('REVIEWS.STARS', { count: value })}
            data-testid="review-form-rating"
          />
        </Input.Wrapper>
        <Textarea
          label={t('REVIEWS.FORM.TEXT')}
          description={t('REVIEWS.FORM.TEXT_HINT', { count: REVIEW_TEXT_MAX_LENGTH - text.length })}
          required
          autosize
          minRows={3}
          maxLength={REVIEW_TEXT_MAX_LENGTH}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          error={textError}
          data-testid="review-form-text"
        />
        <Group justify="flex-end">
          <Button type="submit" loading={busy} data-testid="review-form-submit">
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
