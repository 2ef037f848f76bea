import { Injectable, Type } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { hostname } from 'node:os';
import { APP_CONFIG } from '#shared/config/config.module';
import { loadConfig } from '#shared/config/load-config';
import { JobName, QueueName, WORKER_HEARTBEAT_KEY, WorkerHeartbeat } from '#shared/contracts/queues';
import { JobService } from '#shared/queue/job.service';
import { RedisService } from '#shared/redis/redis.service';
import { checkJobHandlers, JobHandlerError } from '../../workers/src/jobs/job-handler.check';
import { JobProcessor, OnJob } from '../../workers/src/jobs/job-processor.decorators';
import { JobProcessorHost } from '../../workers/src/jobs/job-processor.host';
import { JobRunner } from '../../workers/src/jobs/job-runner.service';
import { MaintenanceProcessor } from '../../workers/src/processors/maintenance.processor';
import { WorkerModule } from '../../workers/src/worker.module';
import { createTestApp } from '../utils/create-app';
import { readTestRun, testEnv } from '../utils/test-env';
import { pause, waitFor } from '../utils/wait';

/** A run-scoped sub-prefix per boot, so the heartbeat key and the queues of each case are their own. */
const envFor = (name: string) => ({
  REDIS_PREFIX: `${readTestRun().REDIS_PREFIX}${name}-${randomBytes(3).toString('hex')}:`,
  HEARTBEAT_INTERVAL: '3600',
});

async function compileWorker(env: Record<string, string>, extraProviders: Type[] = []): Promise<TestingModule> {
  const moduleRef = await Test.createTestingModule({ imports: [WorkerModule], providers: extraProviders })
    .overrideProvider(APP_CONFIG)
    .useValue(loadConfig(testEnv(env)))
    .compile();
  moduleRef.useLogger(false);
  return moduleRef;
}

async function bootWorker(env: Record<string, string>): Promise<TestingModule> {
  const moduleRef = await compileWorker(env);
  await moduleRef.init();
  return moduleRef;
}

/** Runs the boot-time handler check over the real worker module plus extra providers; answers its error. */
async function bootCheckError(extraProviders: Type[]): Promise<unknown> {
  const moduleRef = await compileWorker(envFor('worker-check'), extraProviders);
  try {
    moduleRef.get(JobRunner).checkHandlers();
    return undefined;
  } catch (err) {
    return err;
  } finally {
    await moduleRef.close();
  }
}

describe('worker process', () => {
  describe('heartbeat', () => {
    const env = envFor('worker');
    let worker: TestingModule;
    let redis: RedisService;
    let jobs: JobService;
    const heartbeatKey = () => redis.key(...WORKER_HEARTBEAT_KEY);
    const readBeat = async () => {
      const raw = await redis.client.get(heartbeatKey());
      return raw ? (JSON.parse(raw) as WorkerHeartbeat) : null;
    };

    beforeAll(async () => {
      worker = await bootWorker(env);
      redis = worker.get(RedisService);
      jobs = worker.get(JobService);
    });
    afterAll(async () => {
      await jobs?.queue(JobName.Heartbeat).obliterate({ force: true });
      await worker?.close();
    });

    it('schedules a repeating heartbeat at boot that runs at once', async () => {
      await waitFor(async () => (await readBeat()) !== null, { timeoutMs: 10_000, message: 'the first scheduled heartbeat' });
      const schedulers = await jobs.queue(JobName.Heartbeat).getJobSchedulers();
      expect(schedulers).toEqual(expect.arrayContaining([expect.objectContaining({ key: JobName.Heartbeat, every: 3600 * 1000 })]));
    });

    it('deletes outbox rows dispatched longer ago than OUTBOX_RETENTION_HOURS, keeping newer and pending ones', async () => {
      const db = worker.get(DataSource);
      const insert = async (dispatchedHoursAgo: number | null) => {
        const [row]: { id: string }[] = await db.query(
          `INSERT INTO outbox (topic, payload, created_at, dispatched_at)
           VALUES ('test.retention', '{}', now() - interval '200 hours',
                   CASE WHEN $1::int IS NULL THEN NULL ELSE now() - make_interval(hours => $1::int) END) RETURNING id`,
          [dispatchedHoursAgo],
        );
        return row.id;
      };
      const old = [await insert(100), await insert(73)];
      const kept = [await insert(71), await insert(1), await insert(null)];
      const schedulers = await jobs.queue(JobName.PruneOutbox).getJobSchedulers();
      expect(schedulers).toEqual(expect.arrayContaining([expect.objectContaining({ key: JobName.PruneOutbox, every: 3600 * 1000 })]));

      const jobId = await jobs.add(JobName.PruneOutbox, {}, { jobId: `prune-${randomBytes(4).toString('hex')}` });
      await waitFor(async () => (await jobs.queue(JobName.PruneOutbox).getJobState(jobId)) === 'completed', { timeoutMs: 10_000, message: 'the prune job' });

      const left: { id: string }[] = await db.query(`SELECT id FROM outbox WHERE id = ANY($1::bigint[]) ORDER BY id`, [[...old, ...kept]]);
      expect(left.map((r) => r.id)).toEqual(kept);
      expect((await jobs.queue(JobName.PruneOutbox).getJob(jobId))?.returnvalue.removed).toBeGreaterThanOrEqual(2);
      await db.query(`DELETE FROM outbox WHERE id = ANY($1::bigint[])`, [kept]);
    });

    it('processes a heartbeat job added through the JobService: Redis key with TTL, after SELECT 1', async () => {
      await waitFor(async () => (await readBeat()) !== null, { timeoutMs: 10_000, message: 'the first scheduled heartbeat' });
      await redis.client.del(heartbeatKey());
      const before = Date.now();

      const jobId = await jobs.add(JobName.Heartbeat, {}, { jobId: `e2e-${randomBytes(4).toString('hex')}` });
      await waitFor(async () => (await readBeat()) !== null, { timeoutMs: 10_000, message: 'the heartbeat key' });

      const beat = await readBeat();
      expect(beat).toEqual({ at: expect.any(String), pid: process.pid, host: hostname() });
      expect(Date.parse(beat!.at)).toBeGreaterThanOrEqual(before - 1000);
      const ttl = await redis.client.ttl(heartbeatKey());
      expect(ttl).toBeGreaterThan(3 * 3600 - 60);
      expect(ttl).toBeLessThanOrEqual(3 * 3600);
      await waitFor(async () => (await jobs.queue(JobName.Heartbeat).getJobState(jobId)) === 'completed', { timeoutMs: 10_000, message: 'job completed' });
      const job = await jobs.queue(JobName.Heartbeat).getJob(jobId);
      expect(job?.returnvalue).toEqual(beat);
    });

    it('dedupes a job added twice with the same jobId', async () => {
      const id = `dedupe-${randomBytes(4).toString('hex')}`;
      expect(await jobs.add(JobName.Heartbeat, {}, { jobId: id })).toBe(id);
      expect(await jobs.add(JobName.Heartbeat, {}, { jobId: id })).toBe(id);
      await waitFor(async () => (await jobs.queue(JobName.Heartbeat).getJobState(id)) === 'completed', { timeoutMs: 10_000, message: 'job completed' });
      const completed = await jobs.queue(JobName.Heartbeat).getJobs(['completed']);
      expect(completed.filter((j) => j.id === id)).toHaveLength(1);
    });

    it('uses BullMQ keys under the deployment prefix', async () => {
      const keys = await redis.client.keys(`${env.REDIS_PREFIX}bull:${QueueName.Maintenance}:*`);
      expect(keys.length).toBeGreaterThan(0);
    });

    it('shows up in GET /api/health as worker up, and down once the heartbeat is gone', async () => {
      await jobs.add(JobName.Heartbeat, {});
      await waitFor(async () => (await readBeat()) !== null, { timeoutMs: 10_000, message: 'the heartbeat key' });
      const app = await createTestApp({ REDIS_PREFIX: env.REDIS_PREFIX });
      try {
        const up = await app.http().get('/api/health').expect(200);
        expect(up.body).toMatchObject({ status: 'ok', worker: 'up' });
        await redis.client.del(heartbeatKey());
        const down = await app.http().get('/api/health').expect(200);
        expect(down.body).toMatchObject({ status: 'ok', postgres: 'up', redis: 'up', worker: 'down' });
      } finally {
        await app.close();
      }
    });
  });

  describe('graceful shutdown', () => {
    it('lets an in-flight job finish before closing', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let finished = false;
      const worker = await bootWorker(envFor('worker-shutdown'));
      try {
        const jobs = worker.get(JobService);
        const processor = worker.get(MaintenanceProcessor);
        const real = processor.heartbeat.bind(processor);
        jest.spyOn(processor, 'heartbeat').mockImplementation(async () => {
          await gate;
          const beat = await real();
          finished = true;
          return beat;
        });
        const id = await jobs.add(JobName.Heartbeat, {}, { jobId: `slow-${randomBytes(4).toString('hex')}` });
        await waitFor(async () => (await jobs.queue(JobName.Heartbeat).getJobState(id)) === 'active', { timeoutMs: 10_000, message: 'the job to start' });
        let closed = false;
        const closing = worker.close().then(() => (closed = true));
        // A negative check needs a moment: while the job is blocked, close() must still be waiting for it.
        await pause(300);
        expect(closed).toBe(false);
        expect(finished).toBe(false);
        release();
        await closing;
        expect(finished).toBe(true);
      } finally {
        release();
      }
    });
  });

  describe('handler check at boot (fails the boot: main exits 1)', () => {
    it('fails when a job name has two handlers', async () => {
      @Injectable()
      @JobProcessor(QueueName.Maintenance)
      class SecondMaintenanceProcessor extends JobProcessorHost {
        @OnJob(JobName.Heartbeat)
        async heartbeat(): Promise<void> {}
      }
      const err = await bootCheckError([SecondMaintenanceProcessor]);
      expect(err).toBeInstanceOf(JobHandlerError);
      expect((err as Error).message).toMatch(/queue "maintenance" has 2 processors/);
      expect((err as Error).message).toMatch(/job "heartbeat" has 2 handlers: (Second)?MaintenanceProcessor, (Second)?MaintenanceProcessor/);
    });

    it('fails when a handler sits on a class that is not a processor', async () => {
      @Injectable()
      class StrayHandler {
        @OnJob(JobName.Heartbeat)
        async heartbeat(): Promise<void> {}
      }
      const err = await bootCheckError([StrayHandler]);
      expect(err).toBeInstanceOf(JobHandlerError);
      expect((err as Error).message).toMatch(/StrayHandler is not a @JobProcessor, so its handler never runs/);
    });

    it('passes for the worker module as it is', async () => {
      expect(await bootCheckError([])).toBeUndefined();
    });

    it('names a job without a handler, one on the wrong queue and an unknown job name', () => {
      const contract = { a: 'q1', b: 'q1', c: 'q2' };
      const check = () =>
        checkJobHandlers(
          [
            { owner: 'Q1Processor', queue: 'q1' },
            { owner: 'Q2Processor', queue: 'q2' },
          ],
          [
            { owner: 'Q1Processor', job: 'a', queue: 'q1' },
            { owner: 'Q2Processor', job: 'b', queue: 'q2' },
            { owner: 'Q2Processor', job: 'zzz', queue: 'q2' },
          ],
          contract,
        );
      expect(check).toThrow(JobHandlerError);
      expect(check).toThrow(/job "b" goes to queue "q1" but Q2Processor processes "q2"/);
      expect(check).toThrow(/job "c" has no handler/);
      expect(check).toThrow(/Q2Processor handles "zzz", which is not a job name/);
    });

    it('accepts exactly one handler per job on the right queue', () => {
      expect(() => checkJobHandlers([{ owner: 'P', queue: 'q' }], [{ owner: 'P', job: 'a', queue: 'q' }], { a: 'q' })).not.toThrow();
    });
  });
});
