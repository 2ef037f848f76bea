import request from 'supertest';
import { uniqueEmail } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';

/**
 * Routes are case-insensitive, but a cookie's Path is matched case-sensitively by browsers and HTTP clients:
 * the refresh cookie (Path=/api/user) must still reach the refresh route whatever case the caller spells it in.
 */
describe('the refresh cookie under another spelling of /api/user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refreshes through POST /api/User/refresh-token with a client that keeps cookies by their path', async () => {
    const agent = request.agent(t.app.getHttpServer());
    await agent
      .post('/api/user')
      .send({ email: uniqueEmail('case'), password: 'long enough, really', name: 'Case' })
      .expect(201);
    for (const path of ['/api/User/refresh-token', '/API/USER/Refresh-Token', '/api/user/refresh-token']) {
      const res = await agent.post(path).redirects(1);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.body.token).toEqual(expect.any(String));
    }
  });

  it('sends another spelling of the routes that read the cookie on with 308 (method and query kept), and no other route', async () => {
    const res = await t.http().post('/API/User/Refresh-Token?x=1').expect(308);
    expect(res.headers.location).toBe('/api/user/refresh-token?x=1');
    expect((await t.http().post('/api/User/logout').expect(308)).headers.location).toBe('/api/user/logout');
    await t.http().post('/api/user/refresh-token').expect(401);
    await t.http().get('/api/User/WebPush/Config').expect(401);
  });

  it('logs out through POST /api/User/logout: the session ends, so the cookie refreshes no more', async () => {
    const agent = request.agent(t.app.getHttpServer());
    await agent
      .post('/api/user')
      .send({ email: uniqueEmail('case'), password: 'long enough, really', name: 'Case' })
      .expect(201);
    const before = await agent.post('/api/user/refresh-token');
    const cookie = ([] as string[])
      .concat(before.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('parley_rt='))!
      .split(';')[0];
    await agent
      .post('/api/User/Logout')
      .redirects(1)
      .expect((r) => expect(r.status).toBeLessThan(300));
    await t.http().post('/api/user/refresh-token').set('Cookie', cookie).expect(401);
  });
});
