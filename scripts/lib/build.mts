// Builds what is stale (the server and worker with tsc, the client with Vite, by modification times), and says
// where the built server and worker are and with which V8 flags the server runs.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { LaunchError, ROOT, type RunOptions, log, run } from './common.mts';

const require = createRequire(import.meta.url);
const DIST = path.join(ROOT, 'dist');
const STAMP = path.join(DIST, '.build-stamp');
export const SERVER_MAIN = path.join(DIST, 'server', 'src', 'main.js');
export const WORKER_MAIN = path.join(DIST, 'workers', 'src', 'main.js');
/**
 * How the server runs wherever a script starts it (npm start, the fault suite, the benchmarks; the Dockerfile
 * repeats it).
 * - The server allocates many short-lived objects per message (packets, rows, promises): a 64 MB young generation
 *   (V8's default is 16 MB) lets them die there instead of being promoted, which measured p99 send→receive at
 *   500 msg/s falling from ~230 to ~100 ms.
 * - What is still promoted (about 2.5 MB a second at 500 msg/s) made V8 collect the whole heap every 4–8 s: it
 *   sizes the old generation's next limit from its own speed figures, and after a burst of logins it chose about
 *   1.1 times the live heap. Each full collection blocks the event loop 30–60 ms in all, so it made the tail
 *   (p99 22–23 ms at 500 msg/s in the issue's load run, 7.5–8 ms with this). The old generation now grows to
 *   twice the live heap first: one full collection every 30–40 s at that rate, for up to one live heap's worth
 *   more memory (about 100 MB with 2,000 sockets).
 */
export const SERVER_V8_FLAGS: readonly string[] = ['--max-semi-space-size=64', '--heap-growing-percent=100'];
const CLIENT = path.join(ROOT, 'client');
const CLIENT_INDEX = path.join(CLIENT, 'dist', 'index.html');

export const tscBin = (): string => require.resolve('typescript/bin/tsc');

/** The newest modification time among the files under the given paths (skipping what filter rejects). */
function newestMtime(paths: string[], filter: (file: string) => boolean = () => true): number {
  let newest = 0;
  const visit = (p: string) => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(p);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(p)) {
        if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
        visit(path.join(p, entry));
      }
    } else if (filter(p)) {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  paths.forEach(visit);
  return newest;
}

const mtime = (file: string): number => {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
};

const serverSources = () =>
  newestMtime(
    ['shared', 'server/src', 'workers/src', 'migrations', 'package.json', 'tsconfig.json', 'tsconfig.build.json'].map((p) => path.join(ROOT, p)),
    (file) => /\.(ts|json)$/.test(file) && !file.endsWith('.spec.ts'),
  );

export function serverStale(): boolean {
  if (!fs.existsSync(SERVER_MAIN) || !fs.existsSync(WORKER_MAIN)) return true;
  return serverSources() > mtime(STAMP);
}

export const hasClient = (): boolean => fs.existsSync(path.join(CLIENT, 'vite.config.mts'));

export function clientStale(): boolean {
  return hasClient() && newestMtime([CLIENT]) > mtime(CLIENT_INDEX);
}

/** tsc the server and worker into dist/ (incremental). */
export async function buildServer(options: RunOptions = {}): Promise<void> {
  // An incremental build trusts its .tsbuildinfo: with outputs deleted it would emit nothing.
  if (!fs.existsSync(SERVER_MAIN) || !fs.existsSync(WORKER_MAIN)) fs.rmSync(path.join(DIST, '.tsbuildinfo'), { force: true });
  const started = performance.now();
  log('building the server and worker (tsc)…');
  await run('build', process.execPath, [tscBin(), '-p', 'tsconfig.build.json'], options);
  markServerBuilt();
  log(`server and worker built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

export function markServerBuilt(): void {
  fs.mkdirSync(DIST, { recursive: true });
  fs.writeFileSync(STAMP, `${new Date().toISOString()}\n`);
}

export async function buildClient(options: RunOptions = {}): Promise<void> {
  const started = performance.now();
  log('building the client (vite)…');
  await run('build', 'npm', ['run', '--silent', 'build:client'], options);
  log(`client built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Builds the server if stale, and the client if it exists and is stale (skipped with client: false). */
export async function buildIfStale({ client = true, ...options }: RunOptions & { client?: boolean } = {}): Promise<void> {
  if (serverStale()) await buildServer(options);
  if (client && !hasClient()) log('no client/ yet: serving the API only');
  else if (client && clientStale()) await buildClient(options);
}

export function assertBuilt(): void {
  if (!fs.existsSync(SERVER_MAIN) || !fs.existsSync(WORKER_MAIN)) throw new LaunchError('dist/ is missing: the build did not run');
}
