import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { createGroup, createUser } from '../factories';
import { ChatClient } from '../utils/chat-client';
import { createTestApp, TestApp } from '../utils/create-app';
import { NGINX, nginxArgs, nginxConfig, requireNginx } from '../utils/nginx';
import { buildServerIfStale, ServerProcess, startServer } from '../utils/server-process';
import { waitFor, within } from '../utils/wait';

// A restarted node comes back on its own port, which nginx's upstream names: fixed ports (npm run chaos uses 4410-4424).
const NGINX_PORT = 4340;
const SERVER_PORTS = [4341, 4342];
const METRICS_PORTS = [4343, 4344];
const NGINX_URL = `http://127.0.0.1:${NGINX_PORT}`;
const CLIENTS = 8;
const GROUPS = 2;

/** The node's sockets, from its Prometheus endpoint (parley_sockets_connected). */
async function socketsOn(node: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${METRICS_PORTS[node]}/metrics`)).text();
  const line = text.split('\n').find((l) => /^parley_sockets_connected[{ ]/.test(l));
  if (!line) throw new Error(`node ${node} serves no parley_sockets_connected:\n${text.slice(0, 2000)}`);
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

const startNode = (node: number) => startServer({ TRUST_PROXY: '1', DRAIN_SPREAD_MS: '1500', METRICS_PORT: String(METRICS_PORTS[node]) }, SERVER_PORTS[node]);

/** What a client's deliveries got wrong against the group's stored messages (seq → code); empty when nothing. */
function deliveryFaults(client: ChatClient, stored: Map<number, string>): string[] {
  const faults: string[] = [];
  const missing = [...stored.keys()].filter((seq) => !client.held.has(seq));
  if (missing.length) faults.push(`never received seqs ${missing.join(', ')}`);
  const wrong = [...client.held].filter(([seq, code]) => stored.get(seq) !== code);
  if (wrong.length) faults.push(`holds what is not stored: ${wrong.map(([seq, code]) => `${seq}=${code}`).join(', ')}`);
  const seen = new Set<string>();
  let newest = 0;
  for (const m of client.live) {
    if (seen.has(m.code)) faults.push(`message:new twice for seq ${m.seq}`);
    else if (m.seq <= newest) faults.push(`message:new for seq ${m.seq} after seq ${newest}`);
    seen.add(m.code);
    newest = Math.max(newest, m.seq);
  }
  faults.push(...client.conflicts, ...client.syncRefusals.map((code) => `sync refused with ${code}`));
  return faults;
}

describe('rolling restart of two servers behind nginx', () => {
  let t: TestApp;
  const nodes: ServerProcess[] = [];
  let nginx: ChildProcess | undefined;
  let nginxDir: string | undefined;
  let clients: ChatClient[] = [];
  const errorLog = () => (nginxDir && fs.existsSync(path.join(nginxDir, 'error.log')) ? fs.readFileSync(path.join(nginxDir, 'error.log'), 'utf8') : '');

  beforeAll(async () => {
    // No nginx is a failure that says what to install, never a skip (and nothing else is started).
    requireNginx();
    buildServerIfStale();
    t = await createTestApp();
    // Both started before either failure is thrown, so afterAll stops whichever did start.
    const started = await Promise.allSettled([startNode(0), startNode(1)]);
    for (const s of started) if (s.status === 'fulfilled') nodes.push(s.value);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    nginxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-rolling-'));
    fs.writeFileSync(path.join(nginxDir, 'nginx.conf'), nginxConfig(nginxDir, NGINX_PORT, SERVER_PORTS));
    nginx = spawn(NGINX, nginxArgs(nginxDir), { stdio: 'ignore' });
    await waitFor(
      async () => {
        if (nginx!.exitCode !== null) throw new Error(`nginx exited (${nginx!.exitCode}):\n${errorLog()}`);
        return (await fetch(`${NGINX_URL}/api/health/ready`).catch(() => null))?.status === 200;
      },
      { timeoutMs: 10_000 },
    );
  }, 300_000);

  afterAll(async () => {
    clients.forEach((c) => c.close());
    for (const node of nodes) if (node.child.exitCode === null) node.child.kill('SIGKILL');
    await Promise.all(nodes.map((node) => node.exited));
    // SIGTERM, not SIGKILL: nginx's master then stops its worker before it exits.
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx!.once('exit', resolve));
      nginx.kill('SIGTERM');
      await exited;
    }
    if (nginxDir) fs.rmSync(nginxDir, { recursive: true, force: true });
    await t?.close();
  });

  it('restarts one node after the other under load: every client comes back, nothing is lost or duplicated, every reader gets its chat in order', async () => {
    const users = await Promise.all(Array.from({ length: CLIENTS }, () => createUser(t)));
    const groups = await Promise.all(
      Array.from({ length: GROUPS }, (_, g) =>
        createGroup(
          t,
          users.filter((_, i) => i % GROUPS === g),
        ),
      ),
    );
    // A loopback network each, so nginx's ip_hash (first three octets) spreads them over both nodes.
    clients = users.map((u, i) => new ChatClient(u, groups[i % GROUPS], { localAddress: `127.0.${i + 1}.1` }));
    await Promise.all(clients.map((c) => c.open(NGINX_URL)));
    const spread = [await socketsOn(0), await socketsOn(1)];
    expect(spread[0] + spread[1]).toBe(CLIENTS);
    expect(spread.every((n) => n > 0)).toBe(true);

    const running = clients.map((c) => c.run());
    await waitFor(() => clients.every((c) => c.acked.size >= 3), { timeoutMs: 20_000 });

    for (const node of [0, 1]) {
      const held = await socketsOn(node);
      const dropsBefore = clients.map((c) => c.drops.length);
      nodes[node].child.kill('SIGTERM');
      const exit = await within(nodes[node].exited, 30_000, () => `node ${node} did not exit within 30 s of SIGTERM:\n${nodes[node].output()}`);
      expect(exit.code).toBe(0);
      nodes[node] = await startNode(node);

      // Every socket it held was sent away, and each of those clients connected again through nginx and sends again.
      const dropped = clients.filter((c, i) => c.drops.length > dropsBefore[i]);
      expect(dropped.length).toBe(held);
      const ackedBefore = clients.map((c) => c.acked.size);
      const back = (c: ChatClient) => c.socket.connected && c.connects[c.connects.length - 1].at > c.drops[c.drops.length - 1];
      await waitFor(() => dropped.every(back), { timeoutMs: 30_000 }).catch(() => {
        const away = dropped.filter((c) => !back(c));
        throw new Error(
          `after node ${node}'s restart, ${away.length} of ${dropped.length} clients never came back; their last connect errors: ${away
            .map((c) => `${c.connectErrors.length}× ${c.connectErrors.slice(-3).join(' / ')}`)
            .join('; ')}\nnginx: ${errorLog().slice(-3000)}\nnode 0: ${nodes[0].output().slice(-3000)}\nnode 1: ${nodes[1].output().slice(-3000)}`,
        );
      });
      await waitFor(() => clients.every((c, i) => c.acked.size >= ackedBefore[i] + 3), { timeoutMs: 20_000 });
    }

    clients.forEach((c) => c.stopSending());
    await Promise.all(running);

    const rows: { group_code: string; seq: number; code: string; client_key: string | null }[] = await t.app.get(DataSource).query(
      `SELECT g.code AS group_code, m.seq::int AS seq, m.code, m.client_key
         FROM chat_message m JOIN chat_group g ON g.id = m.group_id WHERE g.code = ANY($1) ORDER BY m.seq`,
      [groups],
    );
    const storedKeys = new Map<string, number>();
    for (const r of rows) if (r.client_key) storedKeys.set(r.client_key, (storedKeys.get(r.client_key) ?? 0) + 1);
    const acked = clients.flatMap((c) => [...c.acked]);
    expect(acked.filter((key) => !storedKeys.has(key))).toEqual([]);
    expect([...storedKeys].filter(([, n]) => n > 1)).toEqual([]);

    const stored = new Map(groups.map((g) => [g, new Map(rows.filter((r) => r.group_code === g).map((r) => [r.seq, r.code]))]));
    // The last sends' deliveries may still be on their way; what never comes is reported below.
    await waitFor(() => clients.every((c) => c.held.size >= stored.get(c.group)!.size), { timeoutMs: 10_000 }).catch(() => undefined);
    const faults = clients.map((c, i) => ({ client: i, faults: deliveryFaults(c, stored.get(c.group)!) })).filter((f) => f.faults.length);
    expect(faults).toEqual([]);
  }, 120_000);
});
