import { Role } from '#shared/contracts/roles';
import { PresenceService } from '#shared/presence/presence.service';
import { RedisService } from '#shared/redis/redis.service';
import { createGroup, createInstance, createUser, TestUser, uniqueEmail } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';
import { pause, waitFor } from '../utils/wait';

jest.setTimeout(60_000);

describe('presence: POST /api/user/statuses and activity', () => {
  let t: TestApp;
  let presence: PresenceService;
  let redis: RedisService;
  let viewer: TestUser, seen: TestUser, neverSeen: TestUser, foreign: TestUser, globalUser: TestUser;
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });
  const statuses = (u: TestUser, userIds: unknown) => t.http().post('/api/user/statuses').set(as(u)).send({ userIds });
  const lastKey = (code: string) => redis.key('presence', 'last', code);

  beforeAll(async () => {
    t = await createTestApp();
    presence = t.app.get(PresenceService);
    redis = t.app.get(RedisService);
    const other = await createInstance(t);
    [viewer, seen, neverSeen, foreign, globalUser] = await Promise.all([
      createUser(t),
      createUser(t),
      createUser(t),
      createUser(t, { instanceId: other.id }),
      createUser(t, { role: Role.GlobalAdmin }),
    ]);
    // Exact presence is for people one deals with (security-chat-groups covers who else): the viewer shares a chat with them.
    await createGroup(t, [viewer, seen, neverSeen]);
  });
  /** A user the viewer shares a chat with. */
  const contact = async () => {
    const u = await createUser(t);
    await createGroup(t, [viewer, u]);
    return u;
  };
  afterAll(() => t.close());

  it('answers online, last activity and away minutes of visible users, in one Redis round trip', async () => {
    await presence.recordActivity(seen.user.code, true);
    await redis.client.set(lastKey(foreign.user.code), String(Date.now()));
    const mGet = jest.spyOn(redis.client, 'mGet');
    const get = jest.spyOn(redis.client, 'get');
    const res = await statuses(viewer, [seen.user.code, neverSeen.user.code, foreign.user.code, 'unknownCode01']).expect(200);
    expect(mGet).toHaveBeenCalledTimes(1);
    expect(get).not.toHaveBeenCalled();
    mGet.mockRestore();
    get.mockRestore();
    expect(res.body).toEqual([
      { userCode: seen.user.code, online: false, lastActiveAt: expect.any(String), away: 0, idleMs: expect.any(Number) },
      { userCode: neverSeen.user.code, online: false, lastActiveAt: null, away: null, idleMs: null },
    ]);
    expect(Date.now() - Date.parse(res.body[0].lastActiveAt)).toBeLessThan(60_000);

    const global = await statuses(globalUser, [foreign.user.code]).expect(200);
    expect(global.body).toEqual([{ userCode: foreign.user.code, online: false, lastActiveAt: expect.any(String), away: 0, idleMs: expect.any(Number) }]);
  });

  it('counts whole minutes since the last activity, in statuses and in user profiles', async () => {
    const u = await contact();
    await redis.client.set(lastKey(u.user.code), String(Date.now() - 5 * 60_000 - 30_000));
    expect((await statuses(viewer, [u.user.code])).body[0].away).toBe(5);
    expect((await t.http().get(`/api/user/${u.user.code}`).set(as(viewer))).body.away).toBe(5);
    expect(
      (
        await t
          .http()
          .post('/api/user/list')
          .set(as(viewer))
          .send({ userIds: [u.user.code] })
      ).body[0].away,
    ).toBe(5);
  });

  it('is online while a socket is connected, on any node; the counter never goes below zero', async () => {
    const u = await contact();
    const online = async () => (await statuses(viewer, [u.user.code])).body[0].online;
    expect(await presence.isOnline(u.user.code)).toBe(false);
    expect(await presence.socketConnected(u.user.code)).toBe(1);
    expect(await presence.socketConnected(u.user.code)).toBe(2);
    expect(await online()).toBe(true);
    expect(await presence.socketDisconnected(u.user.code)).toBe(1);
    expect(await presence.isOnline(u.user.code)).toBe(true);
    expect(await presence.socketDisconnected(u.user.code)).toBe(0);
    expect(await online()).toBe(false);
    expect(await presence.socketDisconnected(u.user.code)).toBe(0);
    expect(await presence.socketConnected(u.user.code)).toBe(1);
    expect(await presence.isOnline(u.user.code)).toBe(true);
    await presence.socketDisconnected(u.user.code);
  });

  it('records activity on register, login and every authenticated request, writing at most every 15 s', async () => {
    const email = uniqueEmail('active');
    const reg = await t.http().post('/api/user').send({ email, password: 'long enough, really', name: 'Active' }).expect(201);
    const code = reg.body.user.code as string;
    expect(await redis.client.get(lastKey(code))).not.toBeNull();

    await redis.client.del(lastKey(code));
    await t.http().post('/api/user/login').send({ email, password: 'long enough, really' }).expect(200);
    expect(await redis.client.get(lastKey(code))).not.toBeNull();

    const u = await createUser(t);
    expect(await redis.client.get(lastKey(u.user.code))).toBeNull();
    await t.http().get('/api/me').set(as(u)).expect(200);
    await waitFor(async () => (await redis.client.get(lastKey(u.user.code))) !== null);
    const first = Number(await redis.client.get(lastKey(u.user.code)));
    expect(Date.now() - first).toBeLessThan(10_000);

    // Within 15 s another request does not write again.
    await redis.client.set(lastKey(u.user.code), '1000');
    await t.http().get('/api/me').set(as(u)).expect(200);
    // A moment for a write that should not happen.
    await pause(100);
    expect(await redis.client.get(lastKey(u.user.code))).toBe('1000');

    // A failed (401) request is no activity.
    const anon = await createUser(t);
    await t.http().get('/api/me').set('Authorization', `Bearer ${anon.token}x`).expect(401);
    await pause(100);
    expect(await redis.client.get(lastKey(anon.user.code))).toBeNull();
  });

  it('validates the list and needs a token', async () => {
    for (const userIds of [undefined, 'abc', [1], ['bad code'], Array.from({ length: 201 }, (_, i) => `code${i}x`)]) {
      const res = await statuses(viewer, userIds);
      expect([res.status, res.body.code]).toEqual([422, 422]);
    }
    expect((await statuses(viewer, [])).body).toEqual([]);
    const extra = await t.http().post('/api/user/statuses').set(as(viewer)).send({ userIds: [], watch: true });
    expect(extra.body.data.brokenRules).toEqual(['VALIDATION.WATCH.UNKNOWN_FIELD']);
    await t.http().post('/api/user/statuses').send({ userIds: [] }).expect(401);
  });
});
