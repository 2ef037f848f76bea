import webpush from 'web-push';
import { ConfigError, loadConfig } from '#shared/config/load-config';
import { PushSender, retryAfterMs } from './push-sender';

describe('Retry-After', () => {
  it('reads seconds and HTTP dates; nothing for absent or unreadable values', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs(['5'], now)).toBe(5000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect(retryAfterMs(undefined, now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
  });
});

describe('PUSH_CA_FILE', () => {
  const keys = webpush.generateVAPIDKeys();
  const config = (env: Record<string, string>) =>
    loadConfig({
      DATABASE_URL: 'postgres://localhost/parley',
      REDIS_URL: 'redis://localhost:6379',
      JWT_SECRET: 'x'.repeat(32),
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      ...env,
    });

  it('is refused in production: only the tests trust an extra CA for push services', () => {
    expect(() => new PushSender(config({ NODE_ENV: 'production', PUSH_CA_FILE: '/etc/ssl/test-ca.pem' }))).toThrow(ConfigError);
    expect(() => new PushSender(config({ NODE_ENV: 'production', PUSH_CA_FILE: '/etc/ssl/test-ca.pem' }))).toThrow(/PUSH_CA_FILE: only for tests/);
    const sender = new PushSender(config({ NODE_ENV: 'production' }));
    expect(sender.configured).toBe(true);
    sender.onApplicationShutdown();
  });
});
