import { tk } from '@/i18n/i18n';

/** A usual reply time in words: the translation key and its count, rounded up to the unit people think in. */
export function replyTimeLabel(seconds: number): { key: string; count: number } {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  if (minutes < 60) return { key: tk('REVIEWS.REPLY_MINUTES'), count: minutes };
  const hours = Math.ceil(minutes / 60);
  if (hours < 24) return { key: tk('REVIEWS.REPLY_HOURS'), count: hours };
  return { key: tk('REVIEWS.REPLY_DAYS'), count: Math.ceil(hours / 24) };
}

/** A mean rating as people read it: one decimal. */
export const formatAverage = (average: number, locale: string): string =>
  new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(average);
