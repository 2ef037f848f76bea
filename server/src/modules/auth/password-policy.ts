import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Worker } from 'node:worker_threads';
import { AppError, ErrorKey } from '../../common/errors';

/** zxcvbn's scale: 3 is "safely unguessable: moderate protection from offline slow-hash scenario". */
export const MIN_PASSWORD_SCORE = 3;

/**
 * Only the first 64 characters are estimated (the estimate's cost grows fast with length: ~2 s for 128
 * l33t characters, ~0.2 s for 64), and l33t substitutions are capped; a longer password is judged by its start.
 */
const ESTIMATE_MAX_LENGTH = 64;
const L33T_MAX_SUBSTITUTIONS = 16;
const ESTIMATE_TIMEOUT_MS = 10_000;

export const PasswordRule = {
  Common: 'VALIDATION.PASSWORD.COMMON',
  Personal: 'VALIDATION.PASSWORD.PERSONAL',
  TooWeak: 'VALIDATION.PASSWORD.TOO_WEAK',
} as const;

/** What the password must not be made of: the account's e-mail, names, and the instance's name. */
export interface PasswordContext {
  email: string;
  name?: string;
  surname?: string;
  instanceName?: string;
}

interface Estimate {
  score: number;
  /** the dictionary each matched part of the password came from ('' for non-dictionary parts) */
  sources: string[];
}

// Runs in a worker thread, so a long password's estimate never stalls the server's event loop.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { ZxcvbnFactory } = require(workerData.core);
const common = require(workerData.common);
const en = require(workerData.en);
const zxcvbn = new ZxcvbnFactory({
  dictionary: { ...common.dictionary, ...en.dictionary },
  graphs: common.adjacencyGraphs,
  translations: en.translations,
  maxLength: workerData.maxLength,
  l33tMaxSubstitutions: workerData.l33tMaxSubstitutions,
});
parentPort.on('message', ({ id, password, words }) => {
  try {
    const result = zxcvbn.check(password, words);
    parentPort.postMessage({ id, score: result.score, sources: result.sequence.map((m) => (m.dictionaryName ? String(m.dictionaryName) : '')) });
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});`;

const letters = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** The context's words (3+ characters) that a password might be built from, longest first. */
export function contextWords(context: PasswordContext): string[] {
  const [local = '', domain = ''] = context.email.toLowerCase().split('@');
  const parts = [context.email, local, domain, domain.split('.')[0], context.name, context.surname, context.instanceName]
    .flatMap((value) => (value ? [value, ...value.split(/[^\p{L}\p{N}]+/u)] : []))
    .map(letters)
    .filter((word) => word.length >= 3);
  return [...new Set(parts)].sort((a, b) => b.length - a.length);
}

/** Little is left once the context's words are taken out ("Ada.Lovelace1815", "parley2024"). */
export function madeOfContext(password: string, words: string[]): boolean {
  const all = letters(password);
  let rest = all;
  for (const word of words) rest = rest.split(word).join('');
  return rest !== all && rest.length < 6;
}

/**
 * Refuses passwords that are common, built from the account's own data, or otherwise easy to guess, with
 * a maintained estimator (zxcvbn-ts with its common and English dictionaries). Length limits are the DTO's.
 */
@Injectable()
export class PasswordPolicy implements OnModuleDestroy {
  private readonly logger = new Logger(PasswordPolicy.name);
  private worker: Worker | undefined;
  private readonly pending = new Map<number, { resolve: (e: Estimate) => void; reject: (err: Error) => void; timer: NodeJS.Timeout }>();
  private nextId = 0;

  /** The broken rule of a password, or undefined for a good one. */
  async problem(password: string, context: PasswordContext): Promise<string | undefined> {
    const words = contextWords(context);
    if (madeOfContext(password, words)) return PasswordRule.Personal;
    const { score, sources } = await this.estimate(password, words);
    if (score >= MIN_PASSWORD_SCORE) return undefined;
    if (sources.includes('userInputs')) return PasswordRule.Personal;
    if (sources.some((name) => name.startsWith('passwords'))) return PasswordRule.Common;
    return PasswordRule.TooWeak;
  }

  onModuleDestroy(): Promise<number> | undefined {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error('shutting down'));
    return worker?.terminate();
  }

  private estimate(password: string, words: string[]): Promise<Estimate> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<Estimate>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new AppError(503, ErrorKey.Unavailable));
      }, ESTIMATE_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, password, words });
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        core: require.resolve('@zxcvbn-ts/core'),
        common: require.resolve('@zxcvbn-ts/language-common'),
        en: require.resolve('@zxcvbn-ts/language-en'),
        maxLength: ESTIMATE_MAX_LENGTH,
        l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
      },
    });
    worker.unref();
    worker.on('message', (reply: { id: number; error?: string } & Partial<Estimate>) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      clearTimeout(waiting.timer);
      if (reply.error !== undefined) waiting.reject(new Error(`password estimate failed: ${reply.error}`));
      else waiting.resolve({ score: reply.score ?? 0, sources: reply.sources ?? [] });
    });
    // A worker that dies is replaced on the next call; whoever waited gets an error, not a hang.
    const drop = (err: Error) => {
      if (this.worker !== worker) return;
      this.logger.error(`password estimator stopped: ${err.message}`);
      this.worker = undefined;
      this.failAll(err);
    };
    worker.on('error', drop);
    worker.on('exit', (code) => drop(new Error(`exited with ${code}`)));
    this.worker = worker;
    return worker;
  }

  private failAll(err: Error): void {
    for (const [id, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      this.pending.delete(id);
      waiting.reject(err);
    }
  }
}
