import { Test, TestingModule } from '@nestjs/testing';
import { randomBytes } from 'node:crypto';
import { APP_CONFIG } from '#shared/config/config.module';
import { loadConfig } from '#shared/config/load-config';
import { JobName } from '#shared/contracts/queues';
import { portOf } from '#shared/metrics/metrics-endpoint';
import { JobService } from '#shared/queue/job.service';
import { WorkerMetrics } from '../../workers/src/metrics/worker-metrics';
import { WorkerModule } from '../../workers/src/worker.module';
import { readTestRun, testEnv } from '../utils/test-env';
import { waitFor } from '../utils/wait';

describe('Prometheus metrics of the worker', () => {
  let worker: TestingModule;
  let url: string;
  const scrape = async () => (await fetch(url)).text();

  beforeAll(async () => {
    const env = {
      REDIS_PREFIX: `${readTestRun().REDIS_PREFIX}worker-metrics-${randomBytes(3).toString('hex')}:`,
      HEARTBEAT_INTERVAL: '3600',
      WORKER_METRICS_PORT: '0',
    };
    worker = await Test.createTestingModule({ imports: [WorkerModule] })
      .overrideProvider(APP_CONFIG)
      .useValue(loadConfig(testEnv(env)))
      .compile();
    worker.useLogger(false);
    await worker.init();
    url = `http://127.0.0.1:${portOf(worker.get(WorkerMetrics).server!)}/metrics`;
  });
  afterAll(() => worker?.close());

  it('counts finished jobs and reports queues, pushes, its pool and Redis', async () => {
    const jobs = worker.get(JobService);
    const id = await jobs.add(JobName.PruneOutbox, {}, { jobId: `metrics-${randomBytes(4).toString('hex')}` });
    await waitFor(async () => (await jobs.queue(JobName.PruneOutbox).getJobState(id)) === 'completed', { timeoutMs: 20_000 });
    let text = '';
    await waitFor(async () => /parley_jobs_total\{[^}]*outcome="completed"[^}]*\} [1-9]/.test((text = await scrape())), { timeoutMs: 5000 });
    expect(text).toMatch(new RegExp(`parley_jobs_total\\{[^}]*job="${JobName.PruneOutbox}"`));
    for (const series of [
      'parley_queue_jobs{',
      'parley_pushes{',
      'parley_pg_pool_connections{',
      'parley_redis_ping_seconds{',
      'nodejs_eventloop_lag_seconds{',
    ]) {
      expect(text).toContain(series);
    }
    expect(text).toContain('service="worker"');
    expect(text).toMatch(/parley_pushes\{[^}]*outcome="removed"/);
  });
});
