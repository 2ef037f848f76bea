import { createTestApp, TestApp } from '../utils/create-app';

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
});
