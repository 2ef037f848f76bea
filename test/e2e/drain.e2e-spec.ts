import http from 'node:http';
import { DataSource } from 'typeorm';
import { createGroup, createUser } from '../factories';
import { ChatClient } from '../utils/chat-client';
import { createTestApp, TestApp } from '../utils/create-app';
import { buildServerIfStale, ServerProcess, startServer } from '../utils/server-process';
import { waitFor, within } from '../utils/wait';

const SENDERS = 6;

describe('draining on SIGTERM (two server processes)', () => {
  let t: TestApp;
  let a: ServerProcess, b: ServerProcess;

  let senders: ChatClient[] = [];
  let probing = false;

  beforeAll(buildServerIfStale, 250_000);

  beforeAll(async () => {
    t = await createTestApp();
    [a, b] = await Promise.all([startServer({ DRAIN_GRACE_MS: '500', DRAIN_SPREAD_MS: '1500' }), startServer({})]);
  }, 90_000);

  afterAll(async () => {
    // A case that failed part-way must not leave its senders and probes running into the next file.
    probing = false;
    senders.forEach((s) => s.close());
    for (const node of [a, b]) if (node && node.child.exitCode === null) node.child.kill('SIGKILL');
    await Promise.all([a, b].map((node) => node?.exited));
    await t?.close();
  });

  it('answers readiness 503 first, sends every socket to the other node, and loses or duplicates no acknowledged message', async () => {
    const users = await Promise.all(Array.from({ length: SENDERS }, () => createUser(t)));
    const group = await createGroup(t, users);
    senders = users.map((u) => new ChatClient(u, group, { reconnectTo: () => b.url }));
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
        if (status === null) await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    const probed = probe();
    const signalledAt = Date.now();
    a.child.kill('SIGTERM');
    const exit = await within(a.exited, 30_000, () => `the draining node did not exit within 30 s:\n${a.output()}`);
    probing = false;
    await probed;
    agent.destroy();

    expect(exit.code).toBe(0);
    expect(first503).not.toBeNull();
    // The grace: readiness failed while every socket was still connected, well before the exit.
    expect(first503! - signalledAt).toBeLessThan(400);
    for (const s of senders) expect(s.drops[0]).toBeGreaterThanOrEqual(first503!);
    const spread = senders.map((s) => s.drops[0]);
    expect(Math.max(...spread) - Math.min(...spread)).toBeGreaterThan(100);

    await waitFor(() => senders.every((s) => s.reconnectedTo === b.url), { timeoutMs: 20_000 });
    const before = senders.map((s) => s.acked.size);
    await waitFor(() => senders.every((s, i) => s.acked.size >= before[i] + 3), { timeoutMs: 20_000 });
    senders.forEach((s) => s.close());
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
