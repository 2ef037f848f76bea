import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { createClient } from 'redis';
import { configSchema } from '#shared/config/config.schema';
import { readTestRun } from '../utils/test-env';
import { waitFor, within } from '../utils/wait';

const ROOT = path.resolve(__dirname, '../..');

interface Launched {
  process: ChildProcess;
  output: () => string;
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The environment of a developer's shell, without this jest run's own variables. */
function baseEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...extra };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
  return env;
}

function launch(args: string[], env: NodeJS.ProcessEnv): Launched {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const onData = (chunk: Buffer) => (output += chunk.toString());
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve((exit = { code, signal }))),
  );
  const waitForOutput = async (pattern: RegExp, timeoutMs = 90_000) =>
    (await waitFor(
      () => {
        const match = output.match(pattern);
        if (!match && exit) throw new Error(`exited (${exit.code}) before ${pattern}; output:\n${output}`);
        return match;
      },
      { timeoutMs, message: () => `${pattern}; output:\n${output}` },
    ))!;
  return { process: child, output: () => output, waitFor: waitForOutput, exited };
}

/** Resolves with the exit, or rejects after timeoutMs: a clean shutdown takes a few seconds. */
function exitWithin(launched: Launched, timeoutMs: number) {
  return within(launched.exited, timeoutMs, 'exit').catch((err: Error) => {
    throw new Error(`${err.message}; output:\n${launched.output()}`);
  });
}

async function stopIfRunning(launched: Launched | undefined) {
  if (!launched || launched.process.exitCode !== null || launched.process.signalCode !== null) return;
  launched.process.kill('SIGTERM');
  await exitWithin(launched, 30_000).catch(() => launched.process.kill('SIGKILL'));
}

const childPids = (parent: number): number[] =>
  spawnSync('ps', ['-o', 'pid=', '--ppid', String(parent)], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((s) => Number(s.trim()))
    .filter(Boolean);

/** The launcher's child running the given script (dist/server/src/main.js or dist/workers/src/main.js). */
const childRunning = (parent: number, script: string): number | undefined =>
  childPids(parent).find((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(script);
    } catch {
      return false;
    }
  });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
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

async function health(port: number): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`http://127.0.0.1:${port}/api/health`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function workerUp(port: number): Promise<Record<string, unknown>> {
  const { body } = await waitFor(() => health(port), {
    until: ({ status, body }) => status === 200 && body.worker === 'up',
    timeoutMs: 20_000,
    intervalMs: 100,
    message: 'the worker up in /api/health',
  });
  return body;
}

/** Whether a TCP connection to host:port is accepted. */
const connects = (host: string, port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 2000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });

/** This machine's own IPv4 addresses other than loopback (another machine would dial one of these). */
const externalAddresses = (): string[] =>
  Object.values(os.networkInterfaces())
    .flat()
    .filter((a): a is os.NetworkInterfaceInfoIPv4 => !!a && a.family === 'IPv4' && !a.internal)
    .map((a) => a.address);

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'parley-launcher-'));
const prefix = (name: string) => `${readTestRun().REDIS_PREFIX}${name}-${randomBytes(3).toString('hex')}:`;

describe('launcher (npm start)', () => {
  beforeAll(() => {
    // Build what is stale once, so the cases below time the launcher rather than tsc and Vite.
    const build = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', "await (await import('./scripts/lib/build.mts')).buildIfStale()"],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 240_000,
      },
    );
    if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
  }, 250_000);

  describe('with DATABASE_URL and REDIS_URL', () => {
    const run = readTestRun();
    const database = `parley_launcher_${randomBytes(4).toString('hex')}`;
    let dataDir: string;
    let launched: Launched | undefined;

    beforeAll(async () => {
      dataDir = tempDir();
      const admin = new Client({ connectionString: run.adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${database}"`);
      await admin.end();
    });
    afterAll(async () => {
      await stopIfRunning(launched);
      const admin = new Client({ connectionString: run.adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('runs server and worker until /api/health is 200, then stops everything on SIGINT with exit 0', async () => {
      const url = new URL(run.adminUrl);
      url.pathname = `/${database}`;
      const port = await freePort();
      launched = launch(
        ['--import', 'tsx', 'scripts/launch.mts'],
        baseEnv({
          DATABASE_URL: url.toString(),
          REDIS_URL: run.REDIS_URL,
          REDIS_PREFIX: prefix('launcher'),
          PORT: String(port),
          PARLEY_DATA_DIR: dataDir,
          LOG_LEVEL: 'info',
        }),
      );

      const [line, shown] = await launched.waitFor(/Parley is running at (http:\/\/localhost:\d+).*/);
      expect(shown).toBe(`http://localhost:${port}`);
      // Outside production (no NODE_ENV here) it listens on loopback only, and the ready line says so.
      expect(line).toMatch(/listening on 127\.0\.0\.1 only \(HOST=0\.0\.0\.0 opens it to other machines\)/);
      expect(await connects('127.0.0.1', port)).toBe(true);
      for (const address of externalAddresses()) expect([address, await connects(address, port)]).toEqual([address, false]);
      expect(await workerUp(port)).toMatchObject({ status: 'ok', postgres: 'up', redis: 'up', worker: 'up' });
      expect(launched.output()).toMatch(/^\[server\] \{.*"msg":"Nest application successfully started"/m);
      expect(launched.output()).toMatch(/^\[worker\] \{.*"msg":"worker started"/m);
      // Development secrets were generated once, readable by the owner only.
      const secrets = path.join(dataDir, 'secrets.json');
      expect(fs.statSync(secrets).mode & 0o777).toBe(0o600);
      expect(Object.keys(JSON.parse(fs.readFileSync(secrets, 'utf8')))).toEqual(
        expect.arrayContaining(['JWT_SECRET', 'VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY']),
      );

      const children = childPids(launched.process.pid!);
      expect(children.length).toBeGreaterThanOrEqual(2);
      launched.process.kill('SIGINT');
      expect(await exitWithin(launched, 15_000)).toEqual({ code: 0, signal: null });
      expect(children.filter(alive)).toEqual([]);
      expect(launched.output()).toMatch(/\[launcher\] stopped\n/);
    }, 90_000);

    it('restarts a crashed server and worker (logged, with back-off), and still stops everything on SIGTERM', async () => {
      const url = new URL(run.adminUrl);
      url.pathname = `/${database}`;
      const port = await freePort();
      const supervised = launch(
        ['--import', 'tsx', 'scripts/launch.mts'],
        baseEnv({
          DATABASE_URL: url.toString(),
          REDIS_URL: run.REDIS_URL,
          REDIS_PREFIX: prefix('launcher-supervise'),
          PORT: String(port),
          PARLEY_DATA_DIR: dataDir,
        }),
      );
      try {
        await supervised.waitFor(/Parley is running at/);
        const launcherPid = supervised.process.pid!;
        const server = childRunning(launcherPid, 'server/src/main.js')!;
        const worker = childRunning(launcherPid, 'workers/src/main.js')!;
        expect([server, worker].every(Boolean)).toBe(true);

        process.kill(server, 'SIGKILL');
        await supervised.waitFor(/the server was killed by SIGKILL: restarting it in 1 s/);
        await supervised.waitFor(/restarted the server \(pid \d+\)/);
        await waitFor(async () => (await health(port).catch(() => ({ status: 0 }))).status === 200, {
          timeoutMs: 30_000,
          intervalMs: 200,
          message: () => `the server back; output:\n${supervised.output()}`,
        });
        const newServer = childRunning(launcherPid, 'server/src/main.js');
        expect(newServer).toBeDefined();
        expect(newServer).not.toBe(server);

        process.kill(worker, 'SIGKILL');
        await supervised.waitFor(/the worker was killed by SIGKILL: restarting it in 1 s/);
        await supervised.waitFor(/restarted the worker \(pid \d+\)/);
        expect(supervised.process.exitCode).toBeNull();

        const children = childPids(launcherPid);
        supervised.process.kill('SIGTERM');
        expect(await exitWithin(supervised, 20_000)).toEqual({ code: 0, signal: null });
        expect(children.filter(alive)).toEqual([]);
        expect(supervised.output()).not.toMatch(/stopping everything/);
      } finally {
        await stopIfRunning(supervised);
      }
    }, 120_000);

    it('stops with a non-zero exit when the server cannot start, naming the variable', async () => {
      const url = new URL(run.adminUrl);
      url.pathname = `/${database}`;
      const failing = launch(
        ['--import', 'tsx', 'scripts/launch.mts'],
        baseEnv({
          NODE_ENV: 'production',
          DATABASE_URL: url.toString(),
          REDIS_URL: run.REDIS_URL,
          REDIS_PREFIX: prefix('launcher-fail'),
          PORT: String(await freePort()),
          PARLEY_DATA_DIR: dataDir,
        }),
      );
      const { code } = await exitWithin(failing, 60_000);
      expect(code).not.toBe(0);
      expect(failing.output()).toMatch(/JWT_SECRET: Required|JWT_SECRET/);
      expect(failing.output()).toMatch(/while starting: stopping everything/);
    }, 90_000);
  });

  describe('two Parleys on one Redis (no REDIS_PREFIX)', () => {
    const run = readTestRun();
    const databases = [0, 1].map((i) => `parley_launcher_pair${i}_${randomBytes(4).toString('hex')}`);
    const dirs: string[] = [];
    const prefixes: string[] = [];
    const launched: Launched[] = [];
    const urlOf = (database: string) => {
      const url = new URL(run.adminUrl);
      url.pathname = `/${database}`;
      return url.toString();
    };
    const admin = async (sql: string) => {
      const client = new Client({ connectionString: run.adminUrl });
      await client.connect();
      await client.query(sql);
      await client.end();
    };

    beforeAll(async () => {
      for (const database of databases) await admin(`CREATE DATABASE "${database}"`);
    });
    afterAll(async () => {
      await Promise.all(launched.map(stopIfRunning));
      const redis = createClient({ url: run.REDIS_URL });
      await redis.connect();
      for (const p of prefixes) {
        for await (const keys of redis.scanIterator({ MATCH: `${p}*`, COUNT: 500 })) if (keys.length) await redis.del(keys);
      }
      await redis.close();
      for (const database of databases) await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
    });

    it('gives each database its own prefix (queues, heartbeat), and refuses a prefix another database holds', async () => {
      const ports = [await freePort(), await freePort()];
      for (const [i, database] of databases.entries()) {
        dirs.push(tempDir());
        launched.push(
          launch(
            ['--import', 'tsx', 'scripts/launch.mts'],
            baseEnv({ DATABASE_URL: urlOf(database), REDIS_URL: run.REDIS_URL, PORT: String(ports[i]), PARLEY_DATA_DIR: dirs[i] }),
          ),
        );
      }
      for (const l of launched) {
        const [, shown] = await l.waitFor(/keys under (\S+) \(derived from the database\)/);
        prefixes.push(shown);
        await l.waitFor(/Parley is running at/);
      }
      expect(prefixes[0]).toMatch(/^parley:[0-9a-f]{10}:$/);
      expect(prefixes[1]).toMatch(/^parley:[0-9a-f]{10}:$/);
      expect(prefixes[0]).not.toBe(prefixes[1]);

      const redis = createClient({ url: run.REDIS_URL });
      await redis.connect();
      try {
        for (const [i, l] of launched.entries()) {
          await workerUp(ports[i]);
          // Each one's heartbeat is written by its own worker, under its own prefix, and its queues live there too.
          const beat = JSON.parse((await redis.get(`${prefixes[i]}worker:heartbeat`)) ?? 'null') as { pid: number } | null;
          expect(beat?.pid).toBe(childRunning(l.process.pid!, 'workers/src/main.js'));
          expect((await redis.keys(`${prefixes[i]}bull:maintenance:*`)).length).toBeGreaterThan(0);
          expect(await redis.get(`${prefixes[i]}owner`)).toMatch(new RegExp(`/${databases[i]}$`));
        }
      } finally {
        await redis.close();
      }

      // A third launcher told to use the first one's prefix with the second one's database refuses, saying what to do.
      dirs.push(tempDir());
      const clash = launch(
        ['--import', 'tsx', 'scripts/launch.mts'],
        baseEnv({
          DATABASE_URL: urlOf(databases[1]),
          REDIS_URL: run.REDIS_URL,
          REDIS_PREFIX: prefixes[0],
          PORT: String(await freePort()),
          PARLEY_DATA_DIR: dirs[2],
        }),
      );
      const { code } = await exitWithin(clash, 60_000);
      expect(code).not.toBe(0);
      expect(clash.output()).toContain(`the Redis key prefix "${prefixes[0]}"`);
      expect(clash.output()).toMatch(/belongs to another Parley \(postgres at .*\/parley_launcher_pair0_/);
      expect(clash.output()).toMatch(/REDIS_PREFIX=parley-2: npm start/);
      expect(clash.output()).not.toMatch(/\[server\]/);
    }, 150_000);
  });

  describe('with embedded Postgres (no DATABASE_URL)', () => {
    const run = readTestRun();
    const redisPrefix = prefix('launcher-embedded');
    let dataDir: string;
    beforeAll(() => (dataDir = tempDir()));
    afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

    async function start(): Promise<{ launched: Launched; port: number }> {
      const port = await freePort();
      const launched = launch(
        ['--import', 'tsx', 'scripts/launch.mts'],
        baseEnv({
          REDIS_URL: run.REDIS_URL,
          REDIS_PREFIX: redisPrefix,
          PORT: String(port),
          PARLEY_DATA_DIR: dataDir,
        }),
      );
      await launched.waitFor(/Parley is running at/);
      return { launched, port };
    }

    async function embedded(): Promise<Client> {
      const { POSTGRES_PASSWORD } = JSON.parse(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8'));
      const { postgresPort } = JSON.parse(fs.readFileSync(path.join(dataDir, 'state.json'), 'utf8'));
      const client = new Client({ host: '127.0.0.1', port: postgresPort, user: 'postgres', password: POSTGRES_PASSWORD, database: 'parley' });
      await client.connect();
      return client;
    }

    async function stop(launched: Launched) {
      const postmaster = Number(fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
      launched.process.kill('SIGINT');
      expect(await exitWithin(launched, 20_000)).toEqual({ code: 0, signal: null });
      expect(alive(postmaster)).toBe(false);
      expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    }

    it('initialises a cluster the first time and reuses its data the second time', async () => {
      const first = await start();
      try {
        expect(first.launched.output()).toMatch(/initialising embedded PostgreSQL/);
        expect(first.launched.output()).toMatch(/new cluster/);
        expect((await health(first.port)).body).toMatchObject({ postgres: 'up', redis: 'up' });
        const db = await embedded();
        await db.query('CREATE TABLE launcher_marker (note text)');
        await db.query("INSERT INTO launcher_marker VALUES ('kept')");
        await db.end();
        await stop(first.launched);
      } finally {
        await stopIfRunning(first.launched);
      }

      const second = await start();
      try {
        expect(second.launched.output()).not.toMatch(/initialising embedded PostgreSQL/);
        expect(second.launched.output()).toMatch(/existing data/);
        const db = await embedded();
        const { rows } = await db.query('SELECT note FROM launcher_marker');
        const { rows: migrations } = await db.query('SELECT count(*)::int AS n FROM migrations');
        await db.end();
        expect(rows).toEqual([{ note: 'kept' }]);
        expect(migrations[0].n).toBeGreaterThan(0);
        await stop(second.launched);
      } finally {
        await stopIfRunning(second.launched);
      }
    }, 120_000);
  });

  describe('config validated at boot', () => {
    const run = readTestRun();
    const valid = () => ({
      DATABASE_URL: run.DATABASE_URL,
      REDIS_URL: run.REDIS_URL,
      REDIS_PREFIX: prefix('config'),
      JWT_SECRET: randomBytes(32).toString('hex'),
      PORT: '0',
    });
    const runMain = (script: string, env: Record<string, string | undefined>) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [script], { cwd: ROOT, env: baseEnv(env), stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.once('exit', (code) => resolve({ code, stderr }));
      });
    const SERVER = 'dist/server/src/main.js';
    const WORKER = 'dist/workers/src/main.js';
    const cases: Array<[string, string, Record<string, string | undefined>, RegExp]> = [
      ['server without JWT_SECRET', SERVER, { JWT_SECRET: undefined }, /JWT_SECRET: Required/],
      ['server with PORT=eighty', SERVER, { PORT: 'eighty' }, /PORT: Expected number/],
      ['worker without REDIS_URL', WORKER, { REDIS_URL: undefined }, /REDIS_URL: Required/],
      ['worker with WORKER_CONCURRENCY=0', WORKER, { WORKER_CONCURRENCY: '0' }, /WORKER_CONCURRENCY: Number must be greater than or equal to 1/],
    ];

    it('.env.example lists every variable of the config schema', () => {
      const example = fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8');
      const listed = new Set([...example.matchAll(/^# ?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));
      expect(Object.keys(configSchema.shape).filter((name) => !listed.has(name))).toEqual([]);
    });

    it('stops the server and the worker with exit 1 and a message naming the bad variable', async () => {
      const results = await Promise.all(cases.map(([, script, override]) => runMain(script, { ...valid(), ...override })));
      results.forEach(({ code, stderr }, i) => {
        const [label, , , message] = cases[i];
        expect({ label, code, stderr }).toEqual({ label, code: 1, stderr: expect.stringMatching(message) });
        expect(stderr).toMatch(/^Invalid configuration:/);
      });
    }, 60_000);
  });
});
