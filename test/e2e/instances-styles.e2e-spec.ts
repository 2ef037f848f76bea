import { randomBytes } from 'node:crypto';
import { Role } from '#shared/contracts/roles';
import { createInstance, createUser, defaultInstance } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';

const host = () => `css-${randomBytes(4).toString('hex')}.test`;

describe('GET /instance/styles.css', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("serves the default instance's variables to an unknown host, outside /api, without login", async () => {
    const def = await defaultInstance(t);
    const res = await t.http().get('/instance/styles.css').set('Host', 'unclaimed.test').expect(200);
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(res.text).toMatch(/^:root \{\n/);
    expect(res.text).toContain(`--instance-color: #${def.color};`);
    expect(res.text).toContain(`--instance-accent: #${def.accent};`);
  });

  it('serves the instance chosen by Host: its colours, derived variables, then its custom CSS', async () => {
    const h = host();
    await createInstance(t, { hosts: [h], color: 'ff8000', accent: '000080', customCss: '.brand { font-weight: 700 }' });
    const res = await t.http().get('/instance/styles.css').set('Host', `${h}:443`).expect(200);
    expect(res.text).toBe(
      [
        ':root {',
        '  --instance-color: #ff8000;',
        '  --instance-color-rgb: 255, 128, 0;',
        '  --instance-color-contrast: #000000;',
        '  --instance-accent: #000080;',
        '  --instance-accent-rgb: 0, 0, 128;',
        '  --instance-accent-contrast: #ffffff;',
        '}',
        '',
        '.brand { font-weight: 700 }',
        '',
      ].join('\n'),
    );
  });

  it('answers 304 to a matching If-None-Match (strong or weak), 200 otherwise', async () => {
    const h = host();
    await createInstance(t, { hosts: [h] });
    const first = await t.http().get('/instance/styles.css').set('Host', h).expect(200);
    const etag = first.headers.etag;
    const again = await t.http().get('/instance/styles.css').set('Host', h).set('If-None-Match', etag).expect(304);
    expect(again.text).toBeFalsy();
    expect(again.headers.etag).toBe(etag);
    await t.http().get('/instance/styles.css').set('Host', h).set('If-None-Match', `W/${etag}`).expect(304);
    await t.http().get('/instance/styles.css').set('Host', h).set('If-None-Match', '"something-else"').expect(200);
  });

  it('gets a new ETag after the instance is customised', async () => {
    const h = host();
    const instance = await createInstance(t, { hosts: [h] });
    const admin = await createUser(t, { instanceId: instance.id, role: Role.InstanceAdmin });
    const before = await t.http().get('/instance/styles.css').set('Host', h).expect(200);
    await t.http().post('/api/Instance').set('Authorization', `Bearer ${admin.token}`).send({ accent: '123456', customCss: '.x{}' }).expect(200);
    const after = await t.http().get('/instance/styles.css').set('Host', h).set('If-None-Match', before.headers.etag).expect(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.text).toContain('--instance-accent: #123456;');
    expect(after.text.endsWith('.x{}\n')).toBe(true);
  });

  it('answers HEAD with the headers only, and ignores a bad token', async () => {
    const res = await t.http().head('/instance/styles.css').set('Authorization', 'Bearer nonsense').expect(200);
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.text).toBeFalsy();
  });

  it('is not under /api, and other methods are 405', async () => {
    const { token } = await createUser(t, { role: Role.GlobalAdmin });
    const underApi = await t.http().get('/api/instance/styles.css').set('Authorization', `Bearer ${token}`).expect(404);
    expect(underApi.body).toEqual({ code: 404, message: 'SHARED.ERROR.NOT_FOUND' });
    const res = await t.http().post('/instance/styles.css').send({}).expect(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
  });
});
