/** Spec section 4: 1 minute or less is available; up to 60 is away; more is unavailable. */
export const AVAILABLE_MAX_MINUTES = 1;
export const AWAY_MAX_MINUTES = 60;

export type PresenceState = 'available' | 'away' | 'unavailable';

export interface Presence {
  state: PresenceState;
  minutes: number | null;
  /** Mantine colour: green, warning (yellow), error (red). */
  color: 'green' | 'yellow' | 'red';
  /** Has a connected socket right now, when known: an extra hint, never a change of state. */
  online: boolean | null;
}

const COLORS: Record<PresenceState, Presence['color']> = { available: 'green', away: 'yellow', unavailable: 'red' };

/**
 * Presence from minutes since the last activity alone (spec section 4); unknown minutes are unavailable.
 * Someone who just closed their tab was active moments ago, so they stay available, then turn away.
 */
export function presenceOf(minutes: number | null | undefined, online: boolean | null = null): Presence {
  let state: PresenceState = 'unavailable';
  const value = typeof minutes === 'number' && Number.isFinite(minutes) && minutes >= 0 ? Math.floor(minutes) : null;
  if (value !== null) {
    if (value <= AVAILABLE_MAX_MINUTES) state = 'available';
    else if (value <= AWAY_MAX_MINUTES) state = 'away';
  }
  return { state, minutes: value, color: COLORS[state], online };
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** 'Available', 'inactive N minute(s)' or 'Unavailable', in the current language. */
export function presenceLabel(presence: Presence, t: Translate): string {
  switch (presence.state) {
    case 'available':
      return t('PRESENCE.AVAILABLE');
    case 'away':
      return t('PRESENCE.INACTIVE', { count: presence.minutes ?? 0 });
    case 'unavailable':
      return t('PRESENCE.UNAVAILABLE');
  }
}
