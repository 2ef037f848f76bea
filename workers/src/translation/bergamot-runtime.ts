import { Worker } from 'node:worker_threads';
import type { ModelBuffers } from './bergamot-models';

/** The package's worker script: the glue around Bergamot's WASM build (TranslationModel, BlockingService). */
const PACKAGE_WORKER = require.resolve('@browsermt/bergamot-translator/worker/translator-worker.js');

/**
 * What the thread runs. The package's worker script has a Node branch written as CommonJS (require, __dirname),
 * but the package says "type": "module", so Node loads the file as an ES module and it fails on `require`
 * (the package's own translator.js starts it that way). It is compiled here as the CommonJS it is. Marian's log
 * lines (print/printErr, read by the Emscripten glue when it loads) come to the engine instead of stderr.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const { dirname } = require('node:path');
const { compileFunction } = require('node:vm');
const file = workerData.script;
compileFunction(readFileSync(file, 'utf8'), ['require', '__filename', '__dirname'], { filename: file })(require, file, dirname(file));
globalThis.Module.print = globalThis.Module.printErr = (line) => parentPort.postMessage({ log: String(line) });
`;

/** A model as the package's worker names it (its from/to: the pair folder's halves). */
export interface ModelRef {
  from: string;
  to: string;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  /** Marian's log lines while this call ran: the reason of a failure is there, not in its "Aborted()" */
  lines: string[];
  timer: NodeJS.Timeout;
}

/**
 * One Bergamot WASM instance in its own worker thread (node:worker_threads), driven by the package's message
 * protocol ({id, name, args} → {id, result | error}). A model Marian cannot load aborts the WASM instance: every
 * later call fails, so the owner discards the runtime after any failure and starts another.
 */
export class BergamotRuntime {
  private serial = 0;
  private readonly pending = new Map<number, Pending>();
  private ended?: string;

  private constructor(
    private readonly thread: Worker,
    private readonly onLog: (line: string) => void,
  ) {
    thread.on('message', (m: { id?: number; log?: string; result?: unknown; error?: { message?: string } }) => {
      if (m.log !== undefined) {
        for (const p of this.pending.values()) p.lines.push(m.log);
        this.onLog(m.log);
        return;
      }
      const call = m.id === undefined ? undefined : this.pending.get(m.id);
      if (!call) return;
      this.pending.delete(m.id!);
      clearTimeout(call.timer);
      if (m.error === undefined) call.resolve(m.result);
      else call.reject(new Error(reasonOf(m.error.message ?? 'failed', call.lines)));
    });
    thread.on('error', (err) => this.end(`the Bergamot thread failed: ${err.message}`));
    thread.on('exit', (code) => this.end(`the Bergamot thread exited (${code})`));
  }

  /** A thread with the WASM runtime loaded (about 5 MB of WASM, compiled in well under a second). */
  static async start(onLog: (line: string) => void, timeoutMs: number): Promise<BergamotRuntime> {
    const runtime = new BergamotRuntime(new Worker(THREAD, { eval: true, workerData: { script: PACKAGE_WORKER } }), onLog);
    try {
      await runtime.call('initialize', [{ cacheSize: 0 }], [], timeoutMs);
    } catch (err) {
      await runtime.stop();
      throw err;
    }
    return runtime;
  }

  get alive(): boolean {
    return this.ended === undefined;
  }

  /** Loads one model (its buffers are moved to the thread); rejects with Marian's reason when it is not one. */
  async loadModel(model: ModelRef, buffers: ModelBuffers, timeoutMs: number): Promise<void> {
    const moved = [buffers.model, buffers.shortlist, ...buffers.vocabs];
    await this.call('loadTranslationModel', [model, buffers], moved, timeoutMs);
  }

  /** Translates texts with one model, or two in turn (through English); one answer per text, in order. */
  async translate(models: ModelRef[], texts: string[], timeoutMs: number): Promise<string[]> {
    const answers = (await this.call('translate', [{ models, texts: texts.map((text) => ({ text, html: false, qualityScores: false })) }], [], timeoutMs)) as {
      target?: { text?: unknown };
    }[];
    return answers.map((a) => (typeof a?.target?.text === 'string' ? a.target.text : ''));
  }

  async stop(): Promise<void> {
    this.end('the Bergamot runtime was stopped');
    await this.thread.terminate();
  }

  private call(name: string, args: unknown[], transfer: ArrayBuffer[], timeoutMs: number): Promise<unknown> {
    if (this.ended) return Promise.reject(new Error(this.ended));
    const id = ++this.serial;
    return new Promise((resolve, reject) => {
      // A call that never answers (a WASM loop on a bad model) ends the thread: nothing else could stop it.
      const timer = setTimeout(() => {
        this.end(`the Bergamot runtime did not answer ${name} within ${timeoutMs} ms`);
        void this.thread.terminate();
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, lines: [], timer });
      this.thread.postMessage({ id, name, args }, transfer);
    });
  }

  /** Fails every call in flight: the thread is gone or no longer to be used. */
  private end(reason: string): void {
    this.ended ??= reason;
    for (const [id, call] of this.pending) {
      this.pending.delete(id);
      clearTimeout(call.timer);
      call.reject(new Error(reasonOf(this.ended, call.lines)));
    }
  }
}

/** Marian's first error line, which says what was wrong ("Aborted()" does not), else the error's own text. */
function reasonOf(message: string, lines: string[]): string {
  const marian = lines.find((l) => /error/i.test(l));
  return marian ? marian.replace(/^\[[^\]]*\]\s*(Error:\s*)?/, '').trim() : message;
}
