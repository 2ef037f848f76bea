import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { portOf } from '#shared/metrics/metrics-endpoint';
import { ServerMetrics } from '../../server/src/modules/metrics/server-metrics';
import { createGroup, createUser, TestUser } from '../factories';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp } from '../utils/sockets';

const TOKEN = 'scrape-token-0123456789';
/** Series only the worker serves (test/e2e/worker-metrics.e2e-spec.ts). */
const WORKER_ONLY = ['parley_jobs_total', 'parley_pushes'];

/** Every series name the Grafana dashboard queries. */
const dashboardSeries = (): string[] => {
  const json = readFileSync(join(__dirname, '../../deploy/grafana/dashboards/parley.json'), 'utf8');
  return [...new Set(json.match(/\b(parley|nodejs|process)_[a-z0-9_]+/g) ?? [])];
};

/** One sample's value from the exposition text: the series whose name and labels all match. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name) || (line[name.length] !== '{' && line[name.length] !== ' ')) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('Prometheus metrics of the server', () => {
  let t: ListeningApp;
  let metricsUrl: string;
  let a: TestUser, b: TestUser;

  const scrape = async () => {
    const res = await fetch(metricsUrl, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    t = await listenTestApp({ METRICS_PORT: '0', METRICS_TOKEN: TOKEN });
    metricsUrl = `http://127.0.0.1:${portOf(t.app.get(ServerMetrics).server!)}/metrics`;
    [a, b] = await Promise.all([createUser(t), createUser(t)]);
  });
  afterEach(() => closeAllSockets());
  afterAll(() => t.close());

  it('answers on its own port, only with the token, and not on the public one', async () => {
    expect((await fetch(metricsUrl)).status).toBe(401);
    expect((await fetch(metricsUrl, { headers: { Authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
    expect((await fetch(metricsUrl.replace('/metrics', '/other'), { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    await t.http().get('/metrics').expect(404);
    await t.http().get('/api/metrics').expect(404);
  });

  it('carries the series an operator needs', async () => {
    await t.http().get('/api/health').expect(200);
    const text = await scrape();
    for (const name of [
      'parley_sockets_connected',
      'parley_fanout_lag_seconds',
      'parley_insert_wait_seconds',
      'nodejs_eventloop_lag_seconds',
      'parley_redis_ping_seconds',
      'process_cpu_seconds_total',
    ]) {
      expect({ name, value: sample(text, name) }).toEqual({ name, value: expect.any(Number) });
    }
    expect(sample(text, 'parley_pg_pool_connections', { pool: 'main' })).toBeGreaterThan(0);
    expect(sample(text, 'parley_pg_pool_waiting', { pool: 'hot-path' })).toBe(0);
    expect(sample(text, 'parley_queue_jobs', { queue: 'notifications', state: 'waiting' })).toEqual(expect.any(Number));
    expect(sample(text, 'parley_http_requests_total', { method: 'GET', route: '/api/health', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'parley_redis_ping_seconds')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('service="server"');
  });

  it('moves with sockets, accepted and refused sends, and HTTP requests by route pattern', async () => {
    const group = await createGroup(t, [a, b]);
    const before = await scrape();
    const sa = await connect(t.url, a.token);
    expect((await call(sa, 'message:send', { groupCode: group, clientKey: '-m1', message: 'counted' })).ok).toBe(true);
    expect((await call(sa, 'message:send', { groupCode: group, clientKey: '-m2', message: '' })).ok).toBe(false);
    await t.http().get(`/api/user/${b.user.code}`).set('Authorization', `Bearer ${a.token}`);
    const after = await scrape();

    expect(sample(after, 'parley_sockets_connected')).toBe((sample(before, 'parley_sockets_connected') ?? 0) + 1);
    const accepted = (text: string) => sample(text, 'parley_messages_total', { outcome: 'accepted' }) ?? 0;
    expect(accepted(after)).toBe(accepted(before) + 1);
    expect(sample(after, 'parley_messages_total', { outcome: 'refused', code: '422' })).toBe(1);
    expect(after).not.toContain(b.user.code);
    expect(after).toMatch(/parley_http_requests_total\{[^}]*route="\/api\/user\/:[a-zA-Z]+"/);
  });

  it('serves every series the Grafana dashboard queries (the worker the rest)', async () => {
    const text = await scrape();
    const served = (name: string) => text.includes(`\n${name}{`) || text.includes(`\n${name} `);
    expect(dashboardSeries().filter((name) => !served(name))).toEqual(WORKER_ONLY);
  });
});
