/**
 * Spec section 5: deadlines are picked and shown in local time and sent as UTC ISO. The picker is the
 * browser's own `datetime-local` input, whose value is local wall-clock time 'yyyy-MM-ddTHH:mm'.
 */
const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

const pad = (n: number) => String(n).padStart(2, '0');

/** A UTC ISO instant as the picker's local value ('' for none or a malformed one). */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The instant a local picker value stands for, or null when it is empty or not a real local time. */
export function localInputToDate(value: string): Date | null {
  const m = LOCAL_INPUT.exec(value.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((part) => Number(part ?? 0));
  const d = new Date(year, month - 1, day, hour, minute, second);
  // new Date rolls 31 April over to 1 May: such a value is not a real date.
  if (d.getFullYear() !== year || d.getMonth() !== month - 1 || d.getDate() !== day) return null;
  return d;
}

/** The picker's local value as UTC ISO for the API; empty is no deadline (null), a malformed one undefined. */
export function localInputToUtcIso(value: string): string | null | undefined {
  if (value.trim() === '') return null;
  return localInputToDate(value)?.toISOString();
}

/**
 * A date and time (a deadline, when something happened) in the reader's locale and time zone (the browser's unless given), minute precision ('' for none),
 * in the medium date style the offer screens use too ('May 1, 2031, 12:00 PM' / '1 maj 2031, 12:00').
 */
export function formatDateTime(iso: string | null | undefined, locale = 'en-US', timeZone?: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(d);
}

/** Whether a deadline has passed. */
export const isPast = (iso: string | null | undefined, now = Date.now()): boolean => Boolean(iso) && new Date(iso as string).getTime() <= now;
