// Shared by the launcher, the migration CLI and the test runner: paths, .env, logging, child processes.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A failure the user can act on: printed without a stack trace. */
export class LaunchError extends Error {}

const colours: Record<string, number> = { launcher: 1, server: 36, worker: 35, client: 32, tsc: 33, build: 33, postgres: 34, redis: 31 };

export function prefix(name: string): string {
  const tag = `[${name}]`;
  return process.stdout.isTTY && colours[name] ? `\x1b[${colours[name]}m${tag}\x1b[0m` : tag;
}

let logName = 'launcher';

/** The tag of this script's own lines: [launcher], [migrate], [test]. */
export function setLogName(name: string): void {
  logName = name;
}

export function log(message: string): void {
  process.stdout.write(`${prefix(logName)} ${message}\n`);
}

/** Where the launcher keeps embedded services' data and generated secrets (PARLEY_DATA_DIR, default .data). */
export function dataDir(): string {
  return path.resolve(ROOT, process.env.PARLEY_DATA_DIR || '.data');
}

/** Reads .env into process.env without overriding what the environment already sets. */
export function loadDotEnv(): boolean {
  const file = path.join(ROOT, '.env');
  if (!fs.existsSync(file)) return false;
  for (const [key, value] of Object.entries(parseEnv(fs.readFileSync(file, 'utf8')))) {
    if (process.env[key] === undefined) process.env[key] = value;
  }
  return true;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the caller knows the file's shape
export function readJson(file: string): any {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Writes JSON readable by the owner only (secrets and passwords live in these files). */
export function writePrivateJson(file: string, value: unknown): void {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}

export function isAlive(pid: number | undefined | null): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function portFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** The remembered port if it is still free, else the first free one in [from, to], else one the OS picks. */
export async function choosePort(remembered: number | undefined, from: number, to: number): Promise<number> {
  if (remembered && (await portFree(remembered))) return remembered;
  for (let port = from; port <= to; port++) if (await portFree(port)) return port;
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until check() answers true; false after timeoutMs. */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return true;
    await sleep(everyMs);
  }
  return false;
}

export interface ExitResult {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ChildOptions {
  env?: NodeJS.ProcessEnv;
  /** Its output is not printed (onLine still sees it). */
  quiet?: boolean;
}

export interface RunOptions extends ChildOptions {
  register?: (child: Child) => void;
  unregister?: (child: Child) => void;
}

/**
 * A child process in its own process group (so a terminal's Ctrl-C reaches only the launcher, which stops
 * children in order), its output prefixed line by line.
 */
export class Child {
  process: ChildProcess | undefined = undefined;
  exited: Promise<ExitResult> = Promise.resolve({ code: 0, signal: null });
  onExit: ((result: ExitResult, stopping: boolean) => void) | undefined = undefined;
  onLine: ((line: string) => void) | undefined = undefined;
  startedAt = 0;
  stopping = false;

  constructor(
    readonly name: string,
    readonly command: string,
    readonly args: string[],
    readonly options: ChildOptions = {},
  ) {}

  get running(): boolean {
    return !!this.process && this.process.exitCode === null && this.process.signalCode === null;
  }

  start(): this {
    const child = spawn(this.command, this.args, {
      cwd: ROOT,
      env: this.options.env ?? process.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.process = child;
    this.startedAt = Date.now();
    this.stopping = false;
    for (const stream of [child.stdout!, child.stderr!]) {
      readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
        if (!this.options.quiet) process.stdout.write(`${prefix(this.name)} ${line}\n`);
        this.onLine?.(line);
      });
    }
    this.exited = new Promise((resolve) => {
      child.once('error', (err) => {
        process.stdout.write(`${prefix(this.name)} could not start: ${err.message}\n`);
        resolve({ code: 1, signal: null });
      });
      child.once('exit', (code, signal) => resolve({ code, signal }));
    });
    this.exited.then((result) => {
      if (this.process === child) this.onExit?.(result, this.stopping);
    });
    return this;
  }

  signal(signal: NodeJS.Signals): void {
    if (!this.running) return;
    try {
      process.kill(-this.process!.pid!, signal);
    } catch {
      this.process!.kill(signal);
    }
  }

  /** SIGTERM (or the given signal), then SIGKILL after the grace period; resolves once it is gone. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000): Promise<void> {
    if (!this.running) return;
    this.stopping = true;
    this.signal(signal);
    const timer = setTimeout(() => {
      process.stdout.write(`${prefix(this.name)} did not stop within ${graceMs / 1000} s: killing it\n`);
      this.signal('SIGKILL');
    }, graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Runs a command to completion with prefixed output; rejects with a LaunchError on a non-zero exit. */
export async function run(name: string, command: string, args: string[], options: RunOptions = {}): Promise<void> {
  const child = new Child(name, command, args, options).start();
  options.register?.(child);
  const { code, signal } = await child.exited;
  options.unregister?.(child);
  if (code !== 0) throw new LaunchError(`${name} failed (${signal ?? `exit code ${code}`})`);
}
