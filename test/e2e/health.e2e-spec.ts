import { DrainState } from '../../server/src/modules/lifecycle/drain-state';
import { createUser } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';
import { closeAllSockets, connect, ListeningApp, listenTestApp } from '../utils/sockets';

describe('GET /api/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('reports Postgres and Redis up', async () => {
    const res = await t.http().get('/api/health').expect(200);
    expect(res.body).toMatchObject({ status: 'ok', postgres: 'up', redis: 'up' });
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('answers malformed JSON with 400 in the error envelope', async () => {
    const res = await t.http().post('/api/health').set('content-type', 'application/json').send('{bad');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 400, message: 'SHARED.ERROR.MALFORMED_JSON' });
  });

  it('answers liveness without asking Postgres or Redis, and readiness from both', async () => {
    const live = await t.http().get('/api/health/live').expect(200);
    expect(live.body).toEqual({ status: 'ok', uptime: expect.any(Number) });
    const ready = await t.http().get('/api/health/ready').expect(200);
    expect(ready.body).toEqual({ status: 'ready', postgres: 'up', redis: 'up' });
    expect((await t.http().get('/api/HEALTH/Ready')).status).toBe(200);
  });
});

describe('readiness while draining', () => {
  let t: ListeningApp;
  beforeAll(async () => {
    t = await listenTestApp();
  });
  afterAll(async () => {
    closeAllSockets();
    await t.close();
  });

  it('answers 503 draining from the moment the drain begins, while liveness and the full report stay 200', async () => {
    await t.http().get('/api/health/ready').expect(200);
    t.app.get(DrainState).begin();
    const ready = await t.http().get('/api/health/ready').expect(503);
    expect(ready.body).toEqual({ status: 'draining', postgres: 'up', redis: 'up' });
    await t.http().get('/api/health/live').expect(200);
    await t.http().get('/api/health').expect(200);
  });

  it('takes no new socket while draining', async () => {
    const user = await createUser(t);
    t.app.get(DrainState).begin();
    await expect(connect(t.url, user.token)).rejects.toThrow();
  });
});
