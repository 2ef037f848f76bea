import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { testEnv } from './test-env';

const ROOT = path.resolve(__dirname, '../..');
const SERVER = 'dist/server/src/main.js';

/** npm test has built what was stale; a spec run alone builds the server here (nothing when it is fresh). */
export function buildServerIfStale(): void {
  const build = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', "await (await import('./scripts/lib/build.mts')).buildIfStale({ client: false })"],
    { cwd: ROOT, encoding: 'utf8', timeout: 240_000 },
  );
  if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  port: number;
  url: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; at: number }>;
}

/** The built server as its own process on the test run's database and Redis prefix, once it answers ready. */
export async function startServer(env: Record<string, string>, port?: number): Promise<ServerProcess> {
  port ??= await freePort();
  const child = spawn(process.execPath, [SERVER], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...testEnv({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.once('exit', (code) => resolve({ code, at: Date.now() })));
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server on ${port} exited while starting:\n${log}`);
    if ((await fetch(`${url}/api/health/ready`).catch(() => null))?.status === 200) break;
    if (Date.now() > until) throw new Error(`the server on ${port} was not ready within 60 s:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { port, url, child, output: () => log, exited };
}
