import { TestingModule } from '@nestjs/testing';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { DataSource } from 'typeorm';
import { JobName } from '#shared/contracts/queues';
import { JobService } from '#shared/queue/job.service';
import { createUser, TestUser } from '../factories';
import { bootWorker, killed, pushTestEnv, PushTestEnv, ROOT, spawnWorker } from '../push-service/harness';
import { LocalPushService, TestSubscription } from '../push-service/push-service';
import { createTestApp, TestApp } from '../utils/create-app';
import { pause, waitFor } from '../utils/wait';

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

/** A throw-away redis-server (no persistence) on `port`, so a test can stop and restart "Redis" without the shared one. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  await waitFor(() => spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout.trim() === 'PONG', {
    timeoutMs: 10_000,
    intervalMs: 50,
    message: 'redis-server to start',
  });
  return child;
}

describe('web push resilience', () => {
  let push: LocalPushService;
  let setup: PushTestEnv;
  let t: TestApp;
  const auth = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });

  beforeAll(async () => {
    push = await LocalPushService.start();
    setup = await pushTestEnv('push-resilience', push, { WORKER_LOCK_DURATION_MS: '2000', WORKER_STALLED_INTERVAL_MS: '1000' });
    t = await createTestApp(setup.env);
  });
  afterAll(async () => {
    await t?.close();
    await push?.stop();
    await setup?.drop();
  });

  async function pair(): Promise<{ alice: TestUser; bob: TestUser; sub: TestSubscription; group: string }> {
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const sub = push.subscribe(setup.vapidPublicKey);
    await t.http().post('/api/User/WebPush/Register').set(auth(bob)).send({ endpoint: sub.endpoint, keys: sub.keys }).expect(204);
    const res = await t
      .http()
      .put('/api/message/groups')
      .set(auth(alice))
      .send({ userList: [bob.user.code], createNewGroup: true })
      .expect(200);
    return { alice, bob, sub, group: res.body.group.code };
  }

  const outboxRow = (messageCode: string) =>
    t.app
      .get(DataSource)
      .query(`SELECT o.attempts, o.dispatched_at FROM outbox o JOIN chat_message m ON m.id = (o.payload->>'messageId')::bigint WHERE m.code = $1`, [
        messageCode,
      ])
      .then((rows: { attempts: number; dispatched_at: Date | null }[]) => rows[0]);

  const sentRecords = (userId: string) =>
    t.app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM push_notification WHERE user_id = $1 AND status = 'sent'`, [userId])
      .then((rows: { n: number }[]) => rows[0].n);

  it('delivers exactly once when Redis is down between the commit and the dispatch, once it is back', async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    const env = { ...setup.env, REDIS_URL: `redis://127.0.0.1:${port}` };
    let worker: TestingModule | undefined;
    try {
      worker = await bootWorker(env);
      const { alice, bob, sub, group } = await pair();

      redis.kill('SIGKILL');
      await killed(redis);
      const sent = await t.http().post(`/api/message/groups/${group}`).set(auth(alice)).send({ message: 'while redis was away' }).expect(201);
      // The commit holds the outbox row; the relay tries, cannot reach Redis, and leaves it pending.
      await waitFor(() => outboxRow(sent.body.code), {
        until: (r) => r.attempts >= 2 && r.dispatched_at === null,
        timeoutMs: 30_000,
        message: 'failed relay attempts',
      });

      redis = await startRedis(port);
      await waitFor(() => push.arrivalsFor(sub.id).length > 0, { timeoutMs: 20_000, message: 'the push after Redis came back' });
      await waitFor(() => outboxRow(sent.body.code), { until: (r) => r.dispatched_at !== null, timeoutMs: 30_000, message: 'the row marked dispatched' });
      const queue = worker.get(JobService).queue(JobName.NotifyMessage);
      await waitFor(() => queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized'), {
        until: (c) => Object.values(c).every((n) => n === 0),
        timeoutMs: 30_000,
        message: 'an idle queue',
      });
      expect(push.arrivalsFor(sub.id).map((a) => [a.status, (a.payload as { body: string }).body])).toEqual([[201, 'while redis was away']]);
      expect(await sentRecords(bob.user.id)).toBe(1);
    } finally {
      await worker?.close();
      redis.kill('SIGKILL');
      await killed(redis);
    }
  }, 60_000);

  describe('with the built worker as a child process', () => {
    beforeAll(() => {
      const build = spawnSync(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', "await (await import('./scripts/lib/build.mts')).buildIfStale({ client: false })"],
        {
          cwd: ROOT,
          encoding: 'utf8',
          timeout: 240_000,
        },
      );
      if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
    }, 250_000);

    it('re-sends a push in flight at a worker SIGKILL within 15 s with the default lock and stalled-check settings', async () => {
      // This file's other cases shorten the lock; here the worker runs with the shipped defaults.
      const defaults = { ...setup.env };
      delete defaults.WORKER_LOCK_DURATION_MS;
      delete defaults.WORKER_STALLED_INTERVAL_MS;
      const children: ChildProcess[] = [];
      try {
        const first = await spawnWorker(defaults);
        children.push(first);
        const { alice, bob, sub, group } = await pair();
        push.answer(sub.id, { status: 201, hold: true });
        await t.http().post(`/api/message/groups/${group}`).set(auth(alice)).send({ message: 'in flight at the kill' }).expect(201);
        await waitFor(() => push.arrivalsFor(sub.id).length === 1, { timeoutMs: 20_000, message: 'the held push' });

        first.kill('SIGKILL');
        await killed(first);
        const killedAt = Date.now();
        // What a supervisor does: a new worker right away (boot time counts against the 15 s).
        children.push(await spawnWorker(defaults));
        await waitFor(() => push.arrivalsFor(sub.id, 201).length === 1, { timeoutMs: 20_000, message: 'the push re-sent after the kill' });
        const delay = push.arrivalsFor(sub.id, 201)[0].at - killedAt;
        expect(delay).toBeLessThanOrEqual(15_000);
        await waitFor(() => sentRecords(bob.user.id), { until: (n) => n === 1, timeoutMs: 30_000, message: 'one sent record' });
      } finally {
        for (const c of children) c.kill('SIGKILL');
        await Promise.all(children.map(killed));
      }
    }, 60_000);

    it('still delivers when the worker is killed (SIGKILL) in the middle of sending: another worker takes the stalled job over', async () => {
      const children: ChildProcess[] = [];
      try {
        const first = await spawnWorker(setup.env);
        children.push(first);
        const { alice, bob, sub, group } = await pair();
        push.answer(sub.id, { status: 201, hold: true });
        await t.http().post(`/api/message/groups/${group}`).set(auth(alice)).send({ message: 'survive the crash' }).expect(201);
        await waitFor(() => push.arrivalsFor(sub.id).length === 1, { timeoutMs: 20_000, message: 'the held push' });

        first.kill('SIGKILL');
        await killed(first);
        const second = await spawnWorker(setup.env);
        children.push(second);
        await waitFor(() => push.arrivalsFor(sub.id, 201).length === 1, { timeoutMs: 30_000, message: 'the push sent by the second worker' });
        await waitFor(() => sentRecords(bob.user.id), { until: (n) => n > 0, timeoutMs: 30_000, message: 'the sent record' });
        expect(push.arrivalsFor(sub.id).map((a) => a.status)).toEqual([0, 201]);
        expect(await sentRecords(bob.user.id)).toBe(1);

        // SIGTERM with a push in flight: the worker finishes it before it exits.
        push.answer(sub.id, { status: 201, hold: true });
        await t.http().post(`/api/message/groups/${group}`).set(auth(alice)).send({ message: 'finish me first' }).expect(201);
        await waitFor(() => push.arrivalsFor(sub.id).length === 3, { timeoutMs: 20_000, message: 'the second held push' });
        second.kill('SIGTERM');
        // A worker that stopped at once would be gone by now; this one waits for its push to be answered.
        await pause(500);
        expect({ exitCode: second.exitCode, signalCode: second.signalCode }).toEqual({ exitCode: null, signalCode: null });
        push.release();
        await killed(second);
        expect(second.exitCode === 0 || second.signalCode === 'SIGTERM').toBe(true);
        expect(await sentRecords(bob.user.id)).toBe(2);
      } finally {
        for (const c of children) c.kill('SIGKILL');
        await Promise.all(children.map(killed));
      }
    }, 90_000);
  });
});
