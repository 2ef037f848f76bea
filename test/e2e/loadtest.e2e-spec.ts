import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { LoadSignals } from '../../server/src/modules/chat/send/node-load-signals';
import { LoadReading } from '../../server/src/modules/chat/send/send-admission.policy';
import { runScript } from '../utils/scripts';
import { ListeningApp, listenTestApp } from '../utils/sockets';

const runLoadtest = (args: string[]) => runScript('scripts/load/loadtest.mts', args, 60_000);

interface Result {
  label: string;
  sent: number;
  acked: number;
  failedAcks: number;
  expectedDeliveries: number;
  delivered: number;
  lost: number;
  duplicated: number;
  outOfOrder: number;
  sendToReceiveMs: { n: number; p50: number; p99: number };
  refusals: number;
  retries: number;
  acceptedAfterRefusal: number;
  unsent: number;
  deliveryLagMs: { n: number; p50: number; p99: number };
  generatorDelayMs: { p99: number; max: number };
  generatorDelayMaxMsBySecond: number[];
}

/** The load generator as an operator runs it: a small real run against the app, and the bare relay beside it. */
describe('npm run loadtest', () => {
  let t: ListeningApp;
  let dir: string;

  beforeAll(async () => {
    t = await listenTestApp({ AUTH_RATE_LIMIT_IP: '1000000' });
    dir = mkdtempSync(join(tmpdir(), 'parley-load-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it('creates users and groups, sends at the rate, and reports every delivery for Parley and the bare relay', async () => {
    const out = join(dir, 'result.json');
    const run = await runLoadtest([
      '--url',
      t.url,
      '--users',
      '12',
      '--groups',
      '3',
      '--rate',
      '20',
      '--duration',
      '2',
      '--warmup',
      '1',
      '--baseline',
      '--connects-in-flight',
      '4',
      '--out',
      out,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('== parley: 12 sockets, 3 groups');
    expect(run.stdout).toContain('== bare socket.io: 12 sockets, 3 groups');

    const { results } = JSON.parse(readFileSync(out, 'utf8')) as { results: Result[] };
    expect(results.map((r) => r.label)).toEqual(['parley', 'bare socket.io']);
    for (const r of results) {
      expect(r.sent).toBeGreaterThanOrEqual(30);
      expect(r.acked).toBe(r.sent);
      expect(r.failedAcks).toBe(0);
      // Groups of 4: each message reaches its 3 other members.
      expect(r.expectedDeliveries).toBe(r.sent * 3);
      expect(r.delivered).toBe(r.expectedDeliveries);
      expect([r.lost, r.duplicated, r.outOfOrder]).toEqual([0, 0, 0]);
      expect(r.sendToReceiveMs.n).toBe(r.delivered);
      expect(r.sendToReceiveMs.p99).toBeGreaterThanOrEqual(r.sendToReceiveMs.p50);
      // How late the generator's own loop ran: a figure beside the latencies, one per second of the window.
      expect(r.generatorDelayMs.p99).toBeGreaterThanOrEqual(0);
      expect(r.generatorDelayMs.max).toBeGreaterThanOrEqual(r.generatorDelayMs.p99);
      expect(r.generatorDelayMaxMsBySecond.length).toBeGreaterThanOrEqual(1);
      expect(r.generatorDelayMaxMsBySecond.length).toBeLessThanOrEqual(2);
      for (const late of r.generatorDelayMaxMsBySecond) expect(late).toBeLessThanOrEqual(r.generatorDelayMs.max);
    }
    expect(run.stdout).toMatch(/generator {5}event loop late by p99 \d+\.\d {2}max \d+\.\d ms/);

    // The messages really went through Parley: each group holds what was sent to it.
    const stored = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM chat_message WHERE text LIKE 'load %'`);
    expect(stored[0].n).toBeGreaterThanOrEqual(results[0].sent);
  });

  it('refuses a target that is not on this machine, and bad options, before sending anything', async () => {
    const remote = await runLoadtest(['--url', 'http://example.com', '--duration', '1']);
    expect(remote.code).toBe(1);
    expect(remote.stderr).toContain('only loopback targets are allowed');

    const bad = await runLoadtest(['--url', t.url, '--users', '1']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('need --users ≥ 2');
  });
});

/** A node that is overloaded half the time: five readings over the limit, five clear, and again. */
class FlappingLoad extends LoadSignals {
  private reads = 0;
  read(): LoadReading {
    const over = this.reads++ % 10 < 5;
    return { fanoutLagMs: over ? 5000 : 0, insertWaitMs: 0, loopDelayMs: 0 };
  }
  insertWaitMs(): number {
    return 0;
  }
}

describe('npm run loadtest against a node that refuses sends under load', () => {
  let t: ListeningApp;
  let dir: string;

  beforeAll(async () => {
    t = await listenTestApp({ AUTH_RATE_LIMIT_IP: '1000000', OVERLOAD_FANOUT_LAG_MS: '250', OVERLOAD_RETRY_AFTER_MS: '100' }, [
      { provide: LoadSignals, useValue: new FlappingLoad() },
    ]);
    dir = mkdtempSync(join(tmpdir(), 'parley-load-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it('sends refused messages again with the same client key, reports refusals and the delivery lag, and loses nothing acknowledged', async () => {
    const out = join(dir, 'result.json');
    const countStored = async () =>
      (
        await t.app.get(DataSource).query(`SELECT count(DISTINCT client_key)::int AS keys, count(*)::int AS rows FROM chat_message WHERE text LIKE 'load %'`)
      )[0];
    const before = await countStored();
    const args = ['--url', t.url, '--users', '8', '--groups', '2', '--rate', '20', '--duration', '2', '--warmup', '0', '--drain', '5', '--out', out];
    const run = await runLoadtest(args);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('refused');
    expect(run.stdout).toContain('delivery lag');

    const [r] = (JSON.parse(readFileSync(out, 'utf8')) as { results: Result[] }).results;
    expect(r.refusals).toBeGreaterThan(0);
    expect(r.acceptedAfterRefusal).toBeGreaterThan(0);
    expect(r.failedAcks).toBe(0);
    // Every message was either acknowledged or was still being refused when the drain ended: never both, never neither.
    expect(r.acked + r.unsent).toBe(r.sent);
    // Groups of 4: each acknowledged message reaches its 3 other members, once, in order.
    expect(r.expectedDeliveries).toBe(r.acked * 3);
    expect(r.delivered).toBe(r.expectedDeliveries);
    expect([r.lost, r.duplicated, r.outOfOrder]).toEqual([0, 0, 0]);
    expect(r.deliveryLagMs.n).toBe(r.delivered);

    // Refused attempts stored nothing: one row per acknowledged message.
    const after = await countStored();
    expect({ keys: after.keys - before.keys, rows: after.rows - before.rows }).toEqual({ keys: r.acked, rows: r.acked });
  });
});
