import type { PresencePayload } from '#shared/contracts/socket-events';
import { PresenceClock } from '#shared/presence/presence-clock';
import { createGroup, createUser, TestUser } from '../factories';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp, next, record } from '../utils/sockets';
import { pause, waitFor } from '../utils/wait';

jest.setTimeout(60_000);

/** Both nodes count presence by one clock the test moves (minutes pass in an instant). */
class MovedClock extends PresenceClock {
  shift = 0;
  override now(): number {
    return Date.now() + this.shift;
  }
}

describe('presence across two server nodes, by a moved clock', () => {
  const clock = new MovedClock();
  let one: ListeningApp;
  let two: ListeningApp;
  let watched: TestUser, watcher: TestUser;

  beforeAll(async () => {
    const providers = [{ provide: PresenceClock, useValue: clock }];
    [one, two] = await Promise.all([listenTestApp({}, providers), listenTestApp({}, providers)]);
    [watched, watcher] = await Promise.all([createUser(one), createUser(one)]);
    await createGroup(one, [watched, watcher]);
  });
  afterEach(() => closeAllSockets());
  afterAll(() => Promise.all([one.close(), two.close()]));

  /** Minutes idle as the watcher's screen would count them now: from the last status heard, on its own clock. */
  const shownMinutes = (heard: { status: PresencePayload; at: number }) => Math.floor((heard.status.idleMs! + clock.now() - heard.at) / 60_000);

  it('keeps an active user available for the other node, shows exact minutes after they left, and a return within 2 s', async () => {
    const a = await connect(one.url, watched.token);
    const b = await connect(two.url, watcher.token);
    const watch = await call<{ ok: true; statuses: PresencePayload[] }>(b, 'presence:watch', { userCodes: [watched.user.code] });
    let heard = { status: watch.statuses[0], at: clock.now() };
    b.on('presence', (status: PresencePayload) => {
      if (status.userCode === watched.user.code) heard = { status, at: clock.now() };
    });
    const pushes = record<PresencePayload>(b, 'presence');

    // 4 minutes of activity, an interaction every 20 s: the watcher never counts a minute and more.
    for (let step = 0; step < 12; step++) {
      clock.shift += 20_000;
      a.emit('activity', {});
      // No answer tells when the activity is counted and what push it caused has arrived; the clock must not move
      // before, so this lets the moment pass.
      await pause(150);
      expect(shownMinutes(heard)).toBeLessThanOrEqual(1);
    }
    expect(pushes.length).toBeGreaterThanOrEqual(4);

    // The user leaves after a last interaction the client's throttle held back 5 s; 2½ minutes later it is 2 minutes.
    clock.shift += 20_000;
    a.emit('activity', { ago: 5_000 });
    await pause(150);
    clock.shift += 150_000 - 5_000;
    const rest = await one
      .http()
      .post('/api/user/statuses')
      .set('Authorization', `Bearer ${watcher.token}`)
      .send({ userIds: [watched.user.code] });
    // The watcher holds that very last activity (pushed, or caught up within seconds), so its count is exact.
    await waitFor(() => heard.status.lastActiveAt === rest.body[0].lastActiveAt, { timeoutMs: 6000 });
    expect(shownMinutes(heard)).toBe(2);
    expect(rest.body[0]).toMatchObject({ away: 2 });
    expect(rest.body[0].idleMs).toBeGreaterThanOrEqual(150_000);
    expect(rest.body[0].idleMs).toBeLessThan(151_000);

    // Back after 5 minutes: the other node hears it within 2 s.
    clock.shift += 5 * 60_000;
    const back = next<PresencePayload>(b, 'presence', (s) => s.userCode === watched.user.code && s.idleMs! < 1000, 2000);
    a.emit('activity', {});
    expect(await back).toMatchObject({ online: true, away: 0 });
  });
});
