import { showAppBadge } from './app-badge';

describe('app badge', () => {
  it('shows the unread total and clears it at 0', () => {
    const nav = { setAppBadge: jest.fn(async () => undefined), clearAppBadge: jest.fn(async () => undefined) };
    showAppBadge(nav, 3);
    expect(nav.setAppBadge).toHaveBeenCalledWith(3);
    showAppBadge(nav, 0);
    expect(nav.clearAppBadge).toHaveBeenCalledTimes(1);
  });

  it('does nothing where the platform has no badge, and ignores a refusal', async () => {
    expect(() => showAppBadge({}, 3)).not.toThrow();
    const refused = { setAppBadge: jest.fn(() => Promise.reject(new DOMException('not allowed', 'NotAllowedError'))) };
    showAppBadge(refused, 2);
    await Promise.resolve();
    expect(refused.setAppBadge).toHaveBeenCalledWith(2);
  });
});
