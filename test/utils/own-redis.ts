import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from './wait';

/** Each key of the filler takes this long to load (Redis's own test knob), so a restart stays in LOADING a while. */
const KEY_LOAD_DELAY_US = 200;

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

const cli = (port: number, ...args: string[]) => spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' }).stdout.trim();

/**
 * A redis-server of the test's own (never the shared one) that can be killed and restarted like an operator
 * would: its data is saved before the kill and loaded again at the restart, slowly enough (a filler of keys
 * with a per-key load delay) that clients meet `LOADING Redis is loading the dataset in memory` for about
 * `loadingMs` before it is ready.
 */
export class OwnRedis {
  private child?: ChildProcess;

  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(loadingMs = 2000): Promise<OwnRedis> {
    const redis = new OwnRedis(await freePort(), mkdtempSync(join(tmpdir(), 'parley-redis-')));
    await redis.spawn();
    await redis.untilReady();
    const keys = Math.ceil((loadingMs * 1000) / KEY_LOAD_DELAY_US);
    cli(redis.port, 'eval', `for i = 1, ${keys} do redis.call('SET', 'filler:' .. i, 'x') end`, '0');
    return redis;
  }

  /** Saves the data and kills the server (SIGKILL: no goodbye to the clients). */
  async kill(): Promise<void> {
    cli(this.port, 'save');
    await this.killChild();
  }

  /** Starts it again on the same port and data; answers once it accepts connections, while it is still LOADING. */
  async restart(): Promise<void> {
    await this.spawn();
    await waitFor(() => /LOADING|PONG/.test(cli(this.port, 'ping')), { timeoutMs: 10_000, intervalMs: 20, message: 'redis-server to come back' });
  }

  /** Resolves once it answers commands (the dataset is loaded). */
  async untilReady(timeoutMs = 20_000): Promise<void> {
    await waitFor(() => cli(this.port, 'ping') === 'PONG', { timeoutMs, intervalMs: 50, message: 'redis-server to load its data' });
  }

  async stop(): Promise<void> {
    await this.killChild();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async spawn(): Promise<void> {
    this.child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--save',
        '',
        '--appendonly',
        'no',
        '--key-load-delay',
        String(KEY_LOAD_DELAY_US),
        '--loading-process-events-interval-bytes',
        '1024',
      ],
      { stdio: 'ignore' },
    );
    const child = this.child;
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
  }

  private async killChild(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
  }
}
