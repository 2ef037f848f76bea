/** The longest a client may date an interaction back: its own throttle's interval, with room for a slow link. */
export const ACTIVITY_AGO_MAX_MS = 30_000;

/**
 * How long before the `activity` event the interaction it reports happened: the client sends the first
 * interaction at once and the last one its throttle held back at the end of the interval, with `ago`. Anything
 * else (no body, not a number, out of range) counts as now: the event is noise-tolerant and never answered.
 */
export function activityAgoMs(body: unknown): number {
  const ago = (body as { ago?: unknown } | null | undefined)?.ago;
  if (typeof ago !== 'number' || !Number.isFinite(ago) || ago <= 0) return 0;
  return Math.min(ago, ACTIVITY_AGO_MAX_MS);
}
