import { Logger } from '@nestjs/common';
import { ChildProcess, spawn } from 'node:child_process';
import { access, constants, readdir } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import { createServer } from 'node:net';
import { setPriority } from 'node:os';
import type { LanguageCode } from '#shared/contracts/languages';
import { ApertiumBatcher } from './apertium-batcher';
import { engineRequest } from './engine-http';
import { engineCode, productLanguage } from './language-codes';
import { LanguagePair, pairSet, TranslationEngine, TranslationFailure } from './translation-engine';

/** A batched request serves several callers, each with its own deadline; this bounds the request itself. */
const REQUEST_TIMEOUT_MS = 60_000;

/** apertium-apy and its pipelines run at this niceness (the worker's is 0). */
const APY_NICENESS = 10;

export interface ApertiumOptions {
  /** an apertium-apy the operator runs; unset: this engine starts one itself on first use */
  url?: string;
  apyBin: string;
  modesDir: string;
  startTimeoutMs?: number;
}

/**
 * Debian's Apertium through apertium-apy, its HTTP service, which keeps one long-lived pipeline per pair (a
 * pipeline per call costs 0.25–0.5 s to start). The pairs are discovered at boot: from the service's /listPairs
 * when the operator runs one, else from the installed modes (`<from>-<to>.mode`; regional variants such as
 * spa-eng_US are left out). Without a URL the worker starts apertium-apy itself, on a free loopback port, the first
 * time it translates, and stops it at shutdown.
 */
export class ApertiumEngine implements TranslationEngine {
  readonly name = 'apertium' as const;
  private readonly logger = new Logger(ApertiumEngine.name);
  private served: LanguagePair[] = [];
  private has = pairSet([]);
  private child?: ChildProcess;
  private starting?: Promise<string>;
  private readonly batchers = new Map<string, ApertiumBatcher>();

  constructor(private readonly options: ApertiumOptions) {}

  async start(): Promise<void> {
    if (!this.options.url && !(await onPath(this.options.apyBin))) {
      this.logger.log(`apertium: ${this.options.apyBin} is not installed; it serves nothing`);
      return;
    }
    const codes = this.options.url ? await this.listPairs(this.options.url) : await this.installedModes();
    this.served = codes.flatMap(([from, to]) => {
      const pair = { from: productLanguage('apertium', from), to: productLanguage('apertium', to) };
      return pair.from && pair.to && pair.from !== pair.to ? [pair as LanguagePair] : [];
    });
    this.has = pairSet(this.served);
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    this.starting = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }

  pairs(): readonly LanguagePair[] {
    return this.served;
  }

  supports(from: LanguageCode, to: LanguageCode): boolean {
    return this.has(from, to);
  }

  async translate(texts: string[], from: LanguageCode, to: LanguageCode, signal: AbortSignal): Promise<string[]> {
    if (!this.supports(from, to)) throw new TranslationFailure(`apertium does not serve ${from}→${to}`);
    const langpair = `${engineCode('apertium', from, 'source')}|${engineCode('apertium', to, 'target')}`;
    let batcher = this.batchers.get(langpair);
    if (!batcher) {
      // The service's address is looked up per request: a restarted apertium-apy listens on another port.
      batcher = new ApertiumBatcher(async (q) => this.request(this.options.url ?? (await this.service()), langpair, q));
      this.batchers.set(langpair, batcher);
    }
    const pair = batcher;
    return Promise.all(texts.map((q) => pair.translate(q, signal)));
  }

  /** One /translate request; the batcher's requests outlive any one caller's deadline, so they carry their own. */
  private async request(base: string, langpair: string, q: string): Promise<string> {
    const body = new URLSearchParams({ langpair, q, markUnknown: 'no' });
    const answer = (await engineRequest(new URL('translate', withSlash(base)).toString(), {
      method: 'POST',
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })) as {
      responseStatus?: number;
      responseData?: { translatedText?: unknown };
    };
    const text = answer.responseData?.translatedText;
    if (answer.responseStatus !== 200 || typeof text !== 'string') throw new TranslationFailure(`apertium answered no translation (${answer.responseStatus})`);
    return text;
  }

  private async listPairs(url: string): Promise<[string, string][]> {
    try {
      const answer = (await engineRequest(new URL('listPairs', withSlash(url)).toString(), { signal: AbortSignal.timeout(10_000) })) as {
        responseData?: { sourceLanguage: string; targetLanguage: string }[];
      };
      return (answer.responseData ?? []).map((p) => [p.sourceLanguage, p.targetLanguage]);
    } catch (err) {
      this.logger.warn(`apertium: ${url} did not list its pairs (${(err as Error).message}); it serves nothing`);
      return [];
    }
  }

  private async installedModes(): Promise<[string, string][]> {
    let files: string[];
    try {
      files = await readdir(this.options.modesDir);
    } catch {
      return [];
    }
    return files.flatMap((f) => {
      const m = /^([a-z]{2,3})-([a-z]{2,3})\.mode$/.exec(f);
      return m ? [[m[1], m[2]] as [string, string]] : [];
    });
  }

  /** The URL of the apertium-apy this engine started (started once, on first use). */
  private service(): Promise<string> {
    this.starting ??= this.spawnService().catch((err: unknown) => {
      this.starting = undefined;
      throw err;
    });
    return this.starting;
  }

  private async spawnService(): Promise<string> {
    const port = await freePort();
    const child = spawn(this.options.apyBin, ['-p', String(port), this.options.modesDir], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    // Below the server and the worker's other work on a shared machine: translation can wait, a send cannot.
    // Its pipelines, started later by it, inherit this.
    try {
      if (child.pid) setPriority(child.pid, APY_NICENESS);
    } catch {
      // not permitted here: it runs at the worker's priority
    }
    let output = '';
    child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2000)));
    child.once('exit', (code) => {
      if (this.child === child) {
        this.logger.warn(`apertium-apy exited (${code}); it is started again on the next translation`);
        this.child = undefined;
        this.starting = undefined;
      }
    });
    const failed = new Promise<never>((_, reject) => child.once('error', (err) => reject(new Error(`apertium-apy could not start: ${err.message}`))));
    failed.catch(() => undefined);
    const url = `http://127.0.0.1:${port}/`;
    const deadline = Date.now() + (this.options.startTimeoutMs ?? 30_000);
    for (;;) {
      try {
        const ok = await Promise.race([fetch(`${url}listPairs`, { signal: AbortSignal.timeout(1000) }).then((r) => r.ok), failed]);
        if (ok) break;
      } catch (err) {
        if ((err as Error).message.startsWith('apertium-apy could not start')) throw err;
      }
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`apertium-apy did not start: ${output.slice(-300)}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    this.logger.log(`apertium-apy started on 127.0.0.1:${port} (pid ${child.pid})`);
    return url;
  }
}

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Whether a command exists (an absolute path, or a name found on PATH) and may be run. */
async function onPath(bin: string): Promise<boolean> {
  const candidates = isAbsolute(bin)
    ? [bin]
    : (process.env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, bin));
  for (const file of candidates) {
    if (
      await access(file, constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return true;
  }
  return false;
}
