import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { io, Socket } from 'socket.io-client';
import { DataSource } from 'typeorm';
import { createGroup, createUser, TestUser } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';
import { testEnv } from '../utils/test-env';
import { pause, waitFor, within } from '../utils/wait';

const ROOT = path.resolve(__dirname, '../..');
const SERVER = 'dist/server/src/main.js';
const SENDERS = 6;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Node {
  url: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; at: number }>;
}

async function startServer(env: Record<string, string>): Promise<Node> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...testEnv({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.once('exit', (code) => resolve({ code, at: Date.now() })));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/api/health/ready`).catch(() => null))?.status === 200, { timeoutMs: 60_000 });
  return { url, child, output: () => output, exited };
}

/**
 * A client as the app's is: it comes back after `io server disconnect` after a random 1–2 s, here through the
 * "load balancer" (the node that is still ready), and sends again what was not acknowledged, with the same key.
 */
class Sender {
  socket!: Socket;
  readonly acked = new Set<string>();
  disconnectedAt: number | null = null;
  reconnectedTo: string | null = null;
  private n = 0;
  private stopped = false;

  constructor(
    private readonly user: TestUser,
    private readonly group: string,
    private readonly pickUrl: () => string,
  ) {}

  async open(url: string): Promise<void> {
    this.socket = io(url, { auth: { token: this.user.token }, transports: ['websocket'], reconnection: false, forceNew: true });
    await new Promise<void>((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('connect_error', reject);
    });
    this.socket.once('disconnect', (reason) => {
      if (reason !== 'io server disconnect' || this.stopped) return;
      this.disconnectedAt = Date.now();
      // The app's client's own back-off before it comes back.
      void pause(1000 + Math.random() * 1000).then(() => {
        const next = this.pickUrl();
        return this.open(next).then(() => (this.reconnectedTo = next));
      });
    });
  }

  /** Sends one message after another; a send without an answer is sent again, same key, once connected again. */
  async run(): Promise<void> {
    while (!this.stopped) {
      const key = `-${this.user.user.code.slice(0, 8)}-${this.n++}`;
      for (;;) {
        if (this.stopped) return;
        if (!this.socket.connected) {
          await waitFor(() => this.stopped || this.socket.connected, { timeoutMs: 30_000, message: 'the sender to be connected again' });
          continue;
        }
        const ack = await this.socket
          .timeout(3000)
          .emitWithAck('message:send', { groupCode: this.group, clientKey: key, message: key })
          .catch(() => null);
        if (ack?.ok) {
          this.acked.add(key);
          break;
        }
      }
      // Paced as a person typing fast, not as a flood.
      await pause(20);
    }
  }

  stop(): void {
    this.stopped = true;
    this.socket?.close();
  }
}

describe('draining on SIGTERM (two server processes)', () => {
  let t: TestApp;
  let a: Node, b: Node;

  let senders: Sender[] = [];
  let probing = false;

  beforeAll(() => {
    // npm test has built what was stale; a run of this file alone builds the server here (nothing when fresh).
    const build = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', "await (await import('./scripts/lib/build.mts')).buildIfStale({ client: false })"],
      { cwd: ROOT, encoding: 'utf8', timeout: 240_000 },
    );
    if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
  }, 250_000);

  beforeAll(async () => {
    t = await createTestApp();
    [a, b] = await Promise.all([startServer({ DRAIN_GRACE_MS: '500', DRAIN_SPREAD_MS: '1500' }), startServer({})]);
  }, 90_000);

  afterAll(async () => {
    // A case that failed part-way must not leave its senders and probes running into the next file.
    probing = false;
    senders.forEach((s) => s.stop());
    for (const node of [a, b]) if (node && node.child.exitCode === null) node.child.kill('SIGKILL');
    await t?.close();
  });

  it('answers readiness 503 first, sends every socket to the other node, and loses or duplicates no acknowledged message', async () => {
    const users = await Promise.all(Array.from({ length: SENDERS }, () => createUser(t)));
    const group = await createGroup(t, users);
    senders = users.map((u) => new Sender(u, group, () => b.url));
    await Promise.all(senders.map((s) => s.open(a.url)));
    const running = senders.map((s) => s.run());
    await waitFor(() => senders.every((s) => s.acked.size >= 5), { timeoutMs: 20_000 });

    // A load balancer's health check on a kept-alive connection, asking again as soon as it has an answer: the
    // connection is never idle, so the drain must end it itself or the process never exits.
    let first503: number | null = null;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    probing = true;
    const probe = async () => {
      while (probing) {
        const status = await new Promise<number | null>((resolve) =>
          http
            .get(`${a.url}/api/health/ready`, { agent }, (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? null));
            })
            .on('error', () => resolve(null)),
        );
        if (status === 503) first503 ??= Date.now();
        // A refused connection (the node is gone) is asked again shortly, as a load balancer would.
        if (status === null) await pause(25);
      }
    };
    const probed = probe();
    const signalledAt = Date.now();
    a.child.kill('SIGTERM');
    const exit = await within(a.exited, 30_000, 'exit of the draining node').catch((err: Error) => {
      throw new Error(`${err.message}; its output:\n${a.output()}`);
    });
    probing = false;
    await probed;
    agent.destroy();

    expect(exit.code).toBe(0);
    expect(first503).not.toBeNull();
    // The grace: readiness failed while every socket was still connected, well before the exit.
    expect(first503! - signalledAt).toBeLessThan(400);
    for (const s of senders) expect(s.disconnectedAt).toBeGreaterThanOrEqual(first503!);
    const spread = senders.map((s) => s.disconnectedAt!);
    expect(Math.max(...spread) - Math.min(...spread)).toBeGreaterThan(100);

    await waitFor(() => senders.every((s) => s.reconnectedTo === b.url), { timeoutMs: 20_000 });
    const before = senders.map((s) => s.acked.size);
    await waitFor(() => senders.every((s, i) => s.acked.size >= before[i] + 3), { timeoutMs: 20_000 });
    senders.forEach((s) => s.stop());
    await Promise.all(running);

    const rows: { client_key: string; n: string }[] = await t.app
      .get(DataSource)
      .query('SELECT m.text AS client_key, count(*) AS n FROM chat_message m JOIN chat_group g ON g.id = m.group_id WHERE g.code = $1 GROUP BY 1', [group]);
    const stored = new Map(rows.map((r) => [r.client_key, Number(r.n)]));
    const acked = senders.flatMap((s) => [...s.acked]);
    expect(acked.filter((key) => !stored.has(key))).toEqual([]);
    expect(rows.filter((r) => Number(r.n) > 1)).toEqual([]);
  }, 120_000);
});
