import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../utils/create-app';

const INDEX = '<!doctype html><html><body><div id="root"></div></body></html>';
const HTML = 'text/html,application/xhtml+xml';

describe('the built client, served by the server', () => {
  let dist: string;
  let t: TestApp;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'parley-dist-'));
    mkdirSync(join(dist, 'static'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'static', 'index-AbC123xy.js'), 'console.log(1)');
    writeFileSync(join(dist, 'assets', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await createTestApp({ CLIENT_DIST: dist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('answers client routes with index.html, never cached', async () => {
    for (const path of ['/', '/jobs/42/offers/abc', '/u/someone', '/capsule']) {
      const res = await t.http().get(path).set('Accept', HTML).expect(200);
      expect(res.text).toBe(INDEX);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('sends the shell with a Content-Security-Policy: scripts, connections and workers from our origin only', async () => {
    for (const path of ['/', '/messages', '/index.html']) {
      const csp: string = (await t.http().get(path).set('Accept', HTML).expect(200)).headers['content-security-policy'];
      const directives = Object.fromEntries(csp.split(/;\s*/).map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
      expect(directives).toMatchObject({
        'default-src': "'self'",
        'script-src': "'self'",
        'connect-src': "'self'",
        'worker-src': "'self'",
        'object-src': "'none'",
        'base-uri': "'self'",
        'frame-ancestors': "'self'",
      });
    }
  });

  it('serves hashed assets as immutable and other files revalidated', async () => {
    const js = await t.http().get('/static/index-AbC123xy.js').expect(200);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['content-type']).toMatch(/javascript/);
    const logo = await t.http().get('/assets/logo.svg').expect(200);
    expect(logo.headers['cache-control']).toBe('no-cache');
  });

  it('leaves the API, the config file and instance styles to the server', async () => {
    const api = await t.http().get('/api/nothing-here').set('Accept', HTML).expect(404);
    expect(api.body).toEqual({ code: 404, message: expect.any(String) });
    const health = await t.http().get('/api/health').set('Accept', HTML).expect(200);
    expect(health.body.status).toBe('ok');
    const config = await t.http().get('/assets/config.json').set('Accept', HTML);
    expect(config.text).not.toBe(INDEX);
    const styles = await t.http().get('/instance/styles.css').set('Accept', HTML);
    expect(styles.text).not.toBe(INDEX);
  });

  it('answers the paths probes and scrapers are pointed at by habit with 404, not the app', async () => {
    for (const path of ['/metrics', '/healthz', '/readyz', '/livez', '/health', '/health/', '/metrics/x']) {
      for (const accept of [HTML, '*/*', 'text/plain']) {
        const res = await t.http().get(path).set('Accept', accept);
        expect({ path, accept, status: res.status }).toEqual({ path, accept, status: 404 });
        expect(res.text).not.toBe(INDEX);
      }
    }
    for (const path of ['/api/metrics', '/api/healthz', '/api/health/nothing']) {
      const res = await t.http().get(path).set('Accept', HTML).expect(404);
      expect(res.body).toEqual({ code: 404, message: expect.any(String) });
    }
  });

  it('does not answer non-HTML requests for unknown files with the app', async () => {
    const res = await t.http().get('/static/missing.js').set('Accept', '*/*').expect(404);
    expect(res.text).not.toBe(INDEX);
    await t.http().post('/jobs').set('Accept', HTML).expect(404);
  });
});

describe('without a client build', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CLIENT_DIST: join(tmpdir(), 'parley-no-such-dist') });
  });
  afterAll(() => t.close());

  it('serves the API only', async () => {
    const res = await t.http().get('/').set('Accept', HTML).expect(404);
    expect(res.body).toEqual({ code: 404, message: expect.any(String) });
    await t.http().get('/api/health').expect(200);
  });
});
