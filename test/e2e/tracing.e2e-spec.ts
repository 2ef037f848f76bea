import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { Socket } from 'socket.io-client';
import { ROOT, pushTestEnv, PushTestEnv } from '../push-service/harness';
import { LocalPushService, TestSubscription } from '../push-service/push-service';
import { call, closeAllSockets, connect } from '../utils/sockets';
import { waitFor } from '../utils/wait';
import { testEnv } from '../utils/test-env';

/** A span as OTLP/HTTP JSON carries it (the fields read here). */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: { stringValue?: string; intValue?: number | string } }[];
  service: string;
}

const SPAN_KIND = { SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 };
const REPORT_MODULES = join(ROOT, 'test/utils/report-otel-modules.cjs');

/** An OpenTelemetry collector's OTLP/HTTP traces endpoint (JSON), keeping every span it is sent. */
class OtlpReceiver {
  readonly spans: OtlpSpan[] = [];
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') return void res.writeHead(404).end();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans: { resource: { attributes: OtlpSpan['attributes'] }; scopeSpans: { spans: Omit<OtlpSpan, 'service'>[] }[] }[];
      };
      for (const rs of body.resourceSpans) {
        const service = rs.resource.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
        for (const ss of rs.scopeSpans) for (const span of ss.spans) this.spans.push({ ...span, service });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const attr = (span: OtlpSpan, key: string) => {
  const v = span.attributes?.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue !== undefined ? Number(v.intValue) : undefined);
};

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

interface Built {
  child: ChildProcess;
  output: () => string;
  exited: Promise<void>;
}

/** A built process (dist/) with the OpenTelemetry report preloaded; resolves once `ready` holds. */
async function startBuilt(script: string, env: Record<string, string>, ready: (output: string) => Promise<boolean> | boolean): Promise<Built> {
  const child = spawn(process.execPath, ['--require', REPORT_MODULES, join(ROOT, script)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...testEnv(env) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`${script} exited:\n${output.slice(-3000)}`);
      return ready(output);
    },
    { timeoutMs: 60_000 },
  );
  return { child, output: () => output, exited };
}

const REPORT = /opentelemetry packages loaded: (\[.*\])/;

/** The OpenTelemetry packages a running built process has loaded (asked with SIGUSR2). */
async function otelPackagesOf(p: Built): Promise<string[]> {
  p.child.kill('SIGUSR2');
  await waitFor(() => REPORT.test(p.output()), { timeoutMs: 10_000 });
  return JSON.parse(REPORT.exec(p.output())![1]) as string[];
}

async function stopBuilt(p: Built): Promise<void> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
  await p.exited;
}

describe('traces: a socket send through the outbox and the worker to the web push (OTLP/HTTP)', () => {
  let push: LocalPushService;
  let setup: PushTestEnv;
  const running: Built[] = [];

  beforeAll(async () => {
    const build = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', "await (await import('./scripts/lib/build.mts')).buildIfStale({ client: false })"],
      { cwd: ROOT, encoding: 'utf8', timeout: 240_000 },
    );
    if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
    push = await LocalPushService.start();
    setup = await pushTestEnv('tracing', push, { DRAIN_SPREAD_MS: '0' });
  }, 300_000);

  afterAll(async () => {
    closeAllSockets();
    await Promise.all(running.map(stopBuilt));
    await push?.stop();
    await setup?.drop();
  });

  async function startServer(env: Record<string, string>): Promise<{ url: string; server: Built }> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const server = await startBuilt(
      'dist/server/src/main.js',
      { ...setup.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
      async () => (await fetch(`${url}/api/health/ready`).catch(() => null))?.status === 200,
    );
    running.push(server);
    return { url, server };
  }

  async function startWorker(env: Record<string, string>): Promise<Built> {
    const worker = await startBuilt('dist/workers/src/main.js', { ...setup.env, LOG_LEVEL: 'info', ...env }, (output) => output.includes('worker started'));
    running.push(worker);
    return worker;
  }

  async function api(url: string, method: string, path: string, body: unknown, token?: string): Promise<any> {
    const res = await fetch(url + path, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : res.json();
  }

  /** A sender (connected over a socket) and a recipient who is away, with `subscriptions` push subscriptions, in one chat. */
  async function chat(url: string, subscriptions: number): Promise<{ socket: Socket; group: string; subs: TestSubscription[] }> {
    const tag = Math.random().toString(36).slice(2, 8);
    const register = (who: string) =>
      api(url, 'POST', '/api/user', { email: `${who}.${tag}@tracing.test`, password: `Pw-${randomBytes(8).toString('hex')}`, name: who, surname: 'Tracer' });
    const [sender, recipient] = [await register('sender'), await register('recipient')];
    const subs: TestSubscription[] = [];
    for (let i = 0; i < subscriptions; i++) {
      const sub = push.subscribe(setup.vapidPublicKey);
      await api(url, 'POST', '/api/User/WebPush/Register', { endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }, recipient.token);
      subs.push(sub);
    }
    const created = await api(url, 'PUT', '/api/message/groups', { userList: [recipient.user.code], createNewGroup: true }, sender.token);
    return { socket: await connect(url, sender.token), group: created.group.code as string, subs };
  }

  it('gives the socket event, the outbox dispatch, the jobs and the push send one trace, and log lines its id', async () => {
    const receiver = new OtlpReceiver();
    const endpoint = await receiver.start();
    try {
      const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '100' };
      const { url, server } = await startServer(otel);
      const worker = await startWorker(otel);
      // Two devices: one takes the push, the other's push service refuses it, which the worker logs.
      const { socket, group, subs } = await chat(url, 2);
      const [taken, refused] = subs;
      push.answer(refused.id, { status: 400 });

      const ack = await call(socket, 'message:send', { groupCode: group, message: 'traced from the socket to the push', clientKey: 'traced-1' });
      expect(ack.ok).toBe(true);
      await push.until(() => push.arrivalsFor(taken.id, 201).length === 1 && push.arrivalsFor(refused.id, 400).length === 1, 'both pushes');

      const sendSpan = () => receiver.spans.find((s) => s.name === 'socket message:send');
      await waitFor(() => sendSpan() !== undefined, { timeoutMs: 20_000 });
      const send = sendSpan()!;
      const inTrace = () => receiver.spans.filter((s) => s.traceId === send.traceId);
      const byName = (name: string) => inTrace().filter((s) => s.name === name);
      // The push service's requests (their spans name its origin only).
      const pushRequests = () => inTrace().filter((s) => s.kind === SPAN_KIND.CLIENT && attr(s, 'url.full') === `${push.origin}/`);
      await waitFor(() => byName('job send-push').length === 2 && pushRequests().length === 2, { timeoutMs: 20_000 });

      expect(send).toMatchObject({ kind: SPAN_KIND.SERVER, service: 'parley-server' });
      expect(send.parentSpanId || undefined).toBeUndefined();
      expect(attr(send, 'socket.io.event')).toBe('message:send');
      // The insert's statement, made by the pg instrumentation: the SDK was up before pg was loaded.
      expect(inTrace().some((s) => s.service === 'parley-server' && s.name.startsWith('pg.query:chat-insert-messages'))).toBe(true);

      const [dispatch] = byName('outbox dispatch message.created');
      expect(dispatch).toMatchObject({ kind: SPAN_KIND.PRODUCER, service: 'parley-worker', parentSpanId: send.spanId });
      const [notify] = byName('job notify-message');
      expect(notify).toMatchObject({ kind: SPAN_KIND.CONSUMER, service: 'parley-worker', parentSpanId: dispatch.spanId });
      const sends = byName('job send-push');
      for (const s of sends) expect(s).toMatchObject({ kind: SPAN_KIND.CONSUMER, parentSpanId: notify.spanId });
      // Each send's request to the push service is a client span inside its job's span.
      const requests = pushRequests();
      expect(requests.map((r) => r.parentSpanId).sort()).toEqual(sends.map((j) => j.spanId).sort());
      const statuses = requests.map((r) => attr(r, 'http.response.status_code') ?? attr(r, 'http.status_code')).sort();
      expect(statuses).toEqual([201, 400]);

      // The refused send's log line names the trace and the span it was written in.
      const refusedJob = sends.find((s) =>
        requests.some((r) => r.parentSpanId === s.spanId && (attr(r, 'http.response.status_code') ?? attr(r, 'http.status_code')) === 400),
      )!;
      const line = worker
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg?: string; trace_id?: string; span_id?: string })
        .find((l) => l.msg?.includes(`to subscription`) && l.msg.includes('failed: rejected'));
      expect(line).toMatchObject({ trace_id: send.traceId, span_id: refusedJob.spanId });

      socket.close();
      // What spans say leaves out the message's text (in the jobs' data) and the push endpoints' secret paths.
      const exported = JSON.stringify(receiver.spans);
      expect(exported).not.toContain('traced from the socket to the push');
      for (const sub of subs) expect(exported).not.toContain(sub.id);

      expect(await otelPackagesOf(server)).toEqual(expect.arrayContaining(['@opentelemetry/sdk-trace-node', '@opentelemetry/instrumentation-pg']));
      await Promise.all([stopBuilt(server), stopBuilt(worker)]);
    } finally {
      await receiver.stop();
    }
  }, 120_000);

  it('starts no tracing SDK when no OTLP endpoint is set', async () => {
    const { url, server } = await startServer({});
    const worker = await startWorker({});
    const { socket, group, subs } = await chat(url, 1);
    const ack = await call(socket, 'message:send', { groupCode: group, message: 'not traced', clientKey: 'untraced-1' });
    expect(ack.ok).toBe(true);
    await push.until(() => push.arrivalsFor(subs[0].id, 201).length === 1, 'the push');
    socket.close();
    // Only the API the app's code calls into (a flag check while tracing is off): no SDK, no instrumentation.
    expect(await otelPackagesOf(server)).toEqual(['@opentelemetry/api']);
    expect(await otelPackagesOf(worker)).toEqual(['@opentelemetry/api']);
    await Promise.all([stopBuilt(server), stopBuilt(worker)]);
    const lines = worker
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((l) => l.includes('trace_id'))).toEqual([]);
  }, 120_000);
});
