/** The parts of `navigator` the app badge needs (Badging API; absent on most desktop and some mobile browsers). */
export interface BadgeNavigator {
  setAppBadge?: (count?: number) => Promise<void>;
  clearAppBadge?: () => Promise<void>;
}

/**
 * Shows the unread total on the installed app's icon, or clears it at 0. Where the platform has no badge,
 * nothing happens; a refusal (not installed, not allowed) is ignored: the badge is a hint, the count is in the app.
 */
export function showAppBadge(nav: BadgeNavigator, total: number): void {
  const done = total > 0 ? nav.setAppBadge?.(total) : nav.clearAppBadge?.();
  done?.catch(() => undefined);
}
