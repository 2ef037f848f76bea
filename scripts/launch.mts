// npm start / npm run dev: builds what is stale, brings up Postgres and Redis (embedded defaults when
// DATABASE_URL / REDIS_URL are unset), runs the server and the worker, and stops everything on Ctrl-C.
// --watch: tsc --watch restarts the server and worker on new output; the Vite dev server serves the client.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Child, LaunchError, ROOT, choosePort, dataDir, isAlive, loadDotEnv, log, portFree, sleep } from './lib/common.mts';
import { SERVER_MAIN, SERVER_V8_FLAGS, WORKER_MAIN, buildIfStale, hasClient, markServerBuilt, tscBin } from './lib/build.mts';
import { stopCompilerHelpers } from './lib/helper-processes.mts';
import { claimPrefix, databaseIdentity, derivedPrefix } from './lib/redis-prefix.mts';
import { type StoppableService, ensureAppSecrets, ensureDataDir, startEmbeddedPostgres, startRedis } from './lib/services.mts';

/** The server or worker child: a pending restart, and a way to forget past crashes. */
type AppChild = Child & { retry?: NodeJS.Timeout; resetFailures?: () => void };

const watch = process.argv.includes('--watch');
const started = performance.now();
const children = new Set<AppChild>();
const services: StoppableService[] = [];
let shuttingDown = false;
let starting: Promise<unknown> = Promise.resolve();
let pidFile: string | undefined;

const track = { register: (c: Child) => children.add(c), unregister: (c: Child) => children.delete(c) };

process.on('SIGINT', () => onSignal('SIGINT'));
process.on('SIGTERM', () => onSignal('SIGTERM'));
process.on('SIGHUP', () => onSignal('SIGHUP'));
process.on('uncaughtException', (err) => fail(err));
process.on('unhandledRejection', (err) => fail(err));

main().catch(fail);

async function main() {
  if (loadDotEnv()) log('read .env');
  const env = { ...process.env };
  const port = parsePort(env.PORT ?? '3000');
  env.HOST = listenHost(env);
  if (port && !(await portFree(port, env.HOST))) {
    throw new LaunchError(`port ${port} is already in use: stop what listens there, or set PORT (e.g. PORT=3001 npm start)`);
  }
  if (!env.DATABASE_URL || !env.REDIS_URL || env.NODE_ENV !== 'production') ensureDataDir();
  if (!env.DATABASE_URL || !env.REDIS_URL) claimDataDir();

  // In watch mode tsc --watch builds the server and Vite serves the client from source.
  const building = watch ? Promise.resolve() : buildIfStale(track);
  const register = (service: StoppableService) => services.push(service);
  const pgStart = env.DATABASE_URL ? null : startEmbeddedPostgres({ register });
  const redisStart = env.REDIS_URL ? null : startRedis({ register });
  starting = Promise.allSettled([pgStart, redisStart]);
  const [pg, redis] = await Promise.all([pgStart, redisStart, building]);
  if (shuttingDown) return;
  if (pg) env.DATABASE_URL = pg.url;
  if (redis) env.REDIS_URL = redis.url;
  log(`Postgres: ${pg ? pg.note : 'DATABASE_URL'}`);
  const identity = databaseIdentity({ databaseUrl: env.DATABASE_URL, embeddedDir: pg ? path.join(dataDir(), 'postgres') : undefined });
  const chosen = env.REDIS_PREFIX ? 'REDIS_PREFIX' : 'derived from the database';
  env.REDIS_PREFIX ||= derivedPrefix(identity);
  await claimPrefix(env.REDIS_URL!, env.REDIS_PREFIX, identity);
  log(`Redis: ${redis ? redis.note : 'REDIS_URL'}, keys under ${env.REDIS_PREFIX} (${chosen})`);
  const made = ensureAppSecrets(env);
  if (made.length) log(`generated ${made.join(' and ')} for development, kept in ${path.join(dataDir(), 'secrets.json')}`);
  if (process.env.PARLEY_DATA_DIR && !env.FILES_DIR) env.FILES_DIR = path.join(dataDir(), 'files');
  if (process.env.PARLEY_DATA_DIR && !env.EMAIL_DIR) env.EMAIL_DIR = path.join(dataDir(), 'mail');
  if (!env.SMTP_URL) log(`e-mail: no SMTP_URL, every e-mail is kept as a .eml file in ${path.resolve(env.EMAIL_DIR ?? '.data/mail')}`);

  const server = appChild('server', SERVER_MAIN, env);
  const worker = appChild('worker', WORKER_MAIN, env);
  if (watch) {
    await startWatching(env, port, [server, worker]);
  } else {
    server.start();
    worker.start();
  }
  await announce(port, env);
  supervising = !shuttingDown;
}

const NODE_FLAGS: Record<'server' | 'worker', readonly string[]> = { server: SERVER_V8_FLAGS, worker: [] };

/**
 * Extra Node flags for the server only, e.g. SERVER_NODE_FLAGS="--cpu-prof --cpu-prof-dir=prof" to profile it
 * under load (Node refuses --cpu-prof in NODE_OPTIONS, which would reach every child anyway).
 */
const serverFlags = (env: NodeJS.ProcessEnv): string[] => (env.SERVER_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);

/** A restarted child that stayed up this long starts its back-off from 1 s again. */
const STABLE_AFTER_MS = 60_000;
/** Set once Parley answered its first health check: from then on a crashed child is restarted, not fatal. */
let supervising = false;

/**
 * The server or the worker, supervised: once Parley is up, a crash is logged and the child restarted after
 * 1, 2, 4 … 30 s. A child that dies while the stack is still starting (bad config, unreachable database) stops
 * everything instead of looping. Watch mode always restarts (the next build may fix it).
 */
function appChild(name: 'server' | 'worker', script: string, env: NodeJS.ProcessEnv): AppChild {
  const flags = [...NODE_FLAGS[name], ...(name === 'server' ? serverFlags(env) : [])];
  const child: AppChild = new Child(name, process.execPath, ['--enable-source-maps', ...flags, script], { env });
  children.add(child);
  let failures = 0;
  child.onExit = ({ code, signal }, expected) => {
    if (expected || shuttingDown) return;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    if (!watch && !supervising) return shutdown(code || 1, `the ${name} ${how} while starting: stopping everything`);
    if (Date.now() - child.startedAt >= STABLE_AFTER_MS) failures = 0;
    failures += 1;
    const delay = Math.min(1000 * 2 ** (failures - 1), 30_000);
    log(`the ${name} ${how}: restarting it in ${delay / 1000} s (restart ${failures}${watch ? ', or on the next successful build' : ''})`);
    child.retry = setTimeout(() => {
      if (shuttingDown) return;
      child.start();
      log(`restarted the ${name} (pid ${child.process!.pid})`);
    }, delay);
  };
  child.resetFailures = () => {
    failures = 0;
    clearTimeout(child.retry);
  };
  return child;
}

/** tsc --watch drives the server and worker: started after its first clean compile, restarted on each later one. */
async function startWatching(env: NodeJS.ProcessEnv, port: number | undefined, apps: AppChild[]): Promise<void> {
  let firstClean = () => {};
  const compiled = new Promise<void>((resolve) => (firstClean = resolve));
  let restartTimer: NodeJS.Timeout | undefined;
  const tsc = new Child('tsc', process.execPath, [tscBin(), '-p', 'tsconfig.build.json', '--watch', '--preserveWatchOutput'], { env });
  tsc.onLine = (line) => {
    const found = /Found (\d+) errors?\./.exec(line);
    if (!found || found[1] !== '0') return;
    markServerBuilt();
    if (!apps[0].process) return firstClean();
    clearTimeout(restartTimer);
    restartTimer = setTimeout(async () => {
      log('new build: restarting the server and worker');
      await Promise.all(apps.map((app) => (app.resetFailures?.(), app.stop())));
      if (!shuttingDown) apps.forEach((app) => app.start());
    }, 200);
  };
  tsc.onExit = (_, expected) => !expected && !shuttingDown && shutdown(1, 'tsc --watch stopped: stopping everything');
  children.add(tsc.start());
  log('compiling in watch mode (tsc --watch)…');

  if (hasClient()) {
    const vitePort = await choosePort(undefined, 5173, 5199);
    const vite = new Child(
      'client',
      process.execPath,
      [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), '--config', 'client/vite.config.mts', '--port', String(vitePort), '--strictPort'],
      { env: { ...env, PARLEY_SERVER_URL: `http://${probeHost(env.HOST!)}:${port}` } },
    );
    vite.onExit = (_, expected) => !expected && !shuttingDown && shutdown(1, 'the Vite dev server stopped: stopping everything');
    children.add(vite.start());
    env.PARLEY_VITE_URL = `http://localhost:${vitePort}`;
  }
  await compiled;
  if (!shuttingDown) apps.forEach((app) => app.start());
}

/**
 * Where the server listens: HOST, else loopback outside production (the first user registered there becomes
 * admin, so a development server is for this machine only) and every interface in production. The same rule
 * as listenHost() in shared/config/config.schema.ts; the launcher passes the result on, so what it announces
 * is what the server does.
 */
function listenHost(env: NodeJS.ProcessEnv): string {
  return env.HOST || (env.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1');
}

const EVERY_INTERFACE = ['0.0.0.0', '::'];
const LOOPBACK = ['127.0.0.1', 'localhost', '::1'];

/** What the ready line says about who can reach the server. */
function reach(host: string): string {
  if (LOOPBACK.includes(host)) return `listening on ${host} only (HOST=0.0.0.0 opens it to other machines)`;
  if (EVERY_INTERFACE.includes(host)) return `listening on every interface (HOST=${host}): other machines can reach it`;
  return `listening on ${host} (HOST)`;
}

/** The address the launcher checks health at: loopback when the server listens everywhere, else its own. */
const probeHost = (host: string): string => (EVERY_INTERFACE.includes(host) ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host);

/** Prints the URL once /api/health answers 200. */
async function announce(port: number | undefined, env: NodeJS.ProcessEnv): Promise<void> {
  if (!port) return log('PORT is not a fixed port: not waiting for /api/health');
  const host = env.HOST!;
  const health = `http://${probeHost(host)}:${port}/api/health`;
  let last;
  let hinted = false;
  while (!shuttingDown) {
    try {
      const res = await fetch(health, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) break;
      last = `${res.status} ${await res.text()}`;
    } catch (err) {
      const error = err as Error & { cause?: { code?: string } };
      last = error.cause?.code ?? error.message;
    }
    if (!hinted && performance.now() - started > 60_000) {
      hinted = true;
      log(`still waiting for ${health} (last answer: ${last})`);
    }
    await sleep(250);
  }
  if (shuttingDown) return;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const local = EVERY_INTERFACE.includes(host) || LOOPBACK.includes(host) ? 'localhost' : probeHost(host);
  log(`Parley is running at ${env.PUBLIC_URL || `http://${local}:${port}`} (${reach(host)}; ready in ${seconds} s; API docs at /api/docs)`);
  if (env.PARLEY_VITE_URL) log(`client with hot reload: ${env.PARLEY_VITE_URL}`);
  log('press Ctrl-C to stop');
}

function parsePort(raw: string): number | undefined {
  const port = Number(raw);
  return Number.isInteger(port) && port > 0 && port <= 65535 ? port : undefined;
}

/** One launcher per data folder: a second one would fight the first over its Postgres and Redis. */
function claimDataDir(): void {
  pidFile = path.join(dataDir(), 'launcher.pid');
  const other = Number(fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8') : 0);
  if (other && other !== process.pid && isAlive(other)) {
    pidFile = undefined;
    throw new LaunchError(`another launcher (pid ${other}) is running with ${dataDir()}: stop it first, or give this one its own PARLEY_DATA_DIR`);
  }
  fs.writeFileSync(pidFile, String(process.pid));
}

let signals = 0;
function onSignal(signal: NodeJS.Signals): void {
  signals += 1;
  if (signals === 1) return void shutdown(0, `${signal}: stopping…`);
  log('stopping now (killing the remaining processes)');
  for (const child of children) child.signal('SIGKILL');
}

function fail(err: unknown): void {
  if (shuttingDown) return;
  if (err instanceof LaunchError) log(`error: ${err.message}`);
  else log(`error: ${(err as Error | undefined)?.stack ?? err}`);
  void shutdown(1);
}

/** Stops the children (SIGTERM, SIGKILL after 10 s), then the services this launcher started, then exits. */
async function shutdown(code: number, reason?: string): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  if (reason) log(reason);
  await Promise.all([...children].map((child) => (clearTimeout(child.retry), child.stop())));
  // A service still starting registers itself when it is up; stop it too rather than leave it behind.
  await starting;
  await Promise.all(services.reverse().map((s) => s.stop().catch((err: Error) => log(`${s.name} did not stop cleanly: ${err.message}`))));
  await stopCompilerHelpers();
  if (pidFile) fs.rmSync(pidFile, { force: true });
  log(code === 0 ? 'stopped' : `stopped (exit code ${code})`);
  process.exit(code);
}
