import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../../server/src/database/data-source';
import { createGroup, createUser, TestUser } from '../factories';
import { OwnPostgres } from '../utils/own-postgres';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp } from '../utils/sockets';
import { waitFor } from '../utils/wait';

interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
}

const UNAVAILABLE = { code: 503, message: 'SHARED.ERROR.UNAVAILABLE' };

describe('a Postgres outage under a running server', () => {
  let pg: OwnPostgres;
  let t: ListeningApp;
  let user: TestUser;
  let operations: Operation[];

  beforeAll(async () => {
    pg = await OwnPostgres.start();
    const admin = new Client({ connectionString: pg.url() });
    await admin.connect();
    await admin.query('CREATE DATABASE parley');
    await admin.end();
    const ds = await new DataSource(dataSourceOptions({ DATABASE_URL: pg.url('parley'), DATABASE_POOL_SIZE: 2 })).initialize();
    await runMigrations(ds);
    await ds.destroy();
    t = await listenTestApp({ DATABASE_URL: pg.url('parley') });
    user = await createUser(t);
    const docs = (await t.http().get('/api/docs-json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    operations = Object.entries(docs.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({ method: method as Operation['method'], path: path.replace(/\{[^}]+\}/g, 'AbCdEfGhIjKlMnOp') })),
    );
  }, 60_000);
  afterEach(() => closeAllSockets());
  afterAll(async () => {
    await t?.close();
    pg?.destroy();
  });

  it('answers health with its 503 body and every other route with the 503 envelope, then recovers', async () => {
    const other = await createUser(t);
    const group = await createGroup(t, [user, other]);
    const socket = await connect(t.url, user.token);
    pg.stopServer();

    // On a host name whose instance is not cached yet, too.
    for (const host of ['127.0.0.1', 'not-cached.example']) {
      const health = await t.http().get('/api/health').set('Host', host);
      expect([host, health.status]).toEqual([host, 503]);
      expect(health.body).toMatchObject({ status: 'degraded', postgres: 'down', redis: 'up' });
    }
    const uncached = await t.http().get('/api/Instance/Current').set('Host', 'not-cached-either.example');
    expect([uncached.status, uncached.body]).toEqual([503, UNAVAILABLE]);

    const answers: string[] = [];
    for (const op of operations) {
      // The health probes answer their own bodies (the readiness probe: 503 not-ready, postgres down).
      if (op.path === '/api/health' || op.path.startsWith('/api/health/')) continue;
      const res = await t.http()[op.method](op.path).set('Authorization', `Bearer ${user.token}`).send({});
      answers.push(`${op.method.toUpperCase()} ${op.path} ${res.status}`);
      expect([op.path, res.status]).not.toEqual([op.path, 500]);
      if (res.status >= 500) expect([op.path, res.body]).toEqual([op.path, UNAVAILABLE]);
    }
    // Most routes need the database; they all said so.
    expect(answers.filter((a) => a.endsWith(' 503')).length).toBeGreaterThan(operations.length / 2);

    const ack = await call(socket, 'message:send', { groupCode: group, clientKey: 'pg-down', message: 'while the database is away' });
    expect(ack).toEqual({ ok: false, error: UNAVAILABLE });

    pg.startServer();
    await waitFor(async () => (await t.http().get('/api/health')).status === 200, { timeoutMs: 20_000 });
    await t.http().get(`/api/message/groups/${group}`).set('Authorization', `Bearer ${user.token}`).expect(200);
    expect((await call(socket, 'message:send', { groupCode: group, clientKey: 'pg-back', message: 'back' })).ok).toBe(true);
  }, 90_000);
});
