import { Logger } from '@nestjs/common';
import type { LanguageCode } from '#shared/contracts/languages';
import { discoverModels, readModel, VerifiedPair } from './bergamot-models';
import { BergamotRuntime, ModelRef } from './bergamot-runtime';
import { LanguagePair, pairSet, TranslationEngine, TranslationFailure } from './translation-engine';

/** Most texts one call into the WASM translates: texts asked for while one runs go together in the next. */
const MAX_BATCH_TEXTS = 64;
/** A model load or translation taking longer means the WASM is stuck: its thread is ended. */
const CALL_TIMEOUT_MS = 120_000;

export interface BergamotOptions {
  modelsDir?: string;
  callTimeoutMs?: number;
}

interface Waiting {
  route: VerifiedPair[];
  texts: string[];
  resolve: (answers: string[]) => void;
  reject: (err: Error) => void;
}

/**
 * Firefox Translations' engine (@browsermt/bergamot-translator, WASM) with the models the operator put in
 * BERGAMOT_MODELS_DIR. At boot each pair folder is checked against Mozilla's published checksums, then loaded
 * into the WASM runtime: a folder with a missing or altered file, or files Marian cannot load as a model, is
 * refused with a log line saying why and not offered; the other pairs are. A pair with no model of its own but a
 * model into English and one out of it is served through English, as Firefox does. The runtime is one worker
 * thread holding every model; one call runs at a time and the texts asked for meanwhile go together in the next.
 */
export class BergamotEngine implements TranslationEngine {
  readonly name = 'bergamot' as const;
  private readonly logger = new Logger(BergamotEngine.name);
  private accepted: VerifiedPair[] = [];
  private served: LanguagePair[] = [];
  private has = pairSet([]);
  private runtime?: Promise<BergamotRuntime>;
  private readonly queue: Waiting[] = [];
  private busy = false;
  private stopped = false;

  constructor(private readonly options: BergamotOptions) {}

  private get timeoutMs(): number {
    return this.options.callTimeoutMs ?? CALL_TIMEOUT_MS;
  }

  async start(): Promise<void> {
    const dir = this.options.modelsDir;
    if (!dir) {
      this.logger.warn('bergamot is listed in TRANSLATION_ENGINES but BERGAMOT_MODELS_DIR is not set; it serves nothing');
      return;
    }
    const folder = await discoverModels(dir);
    if (folder.unusable) {
      this.logger.warn(`bergamot: ${folder.unusable}; it serves nothing`);
      return;
    }
    for (const { key, reason } of folder.refused) this.logger.warn(`bergamot: model ${key} in ${dir} refused: ${reason}; its pair is not offered`);
    if (!folder.verified.length && !folder.refused.length)
      this.logger.warn(`bergamot: no model folder for the product's languages in ${dir}; it serves nothing`);
    for (const pair of folder.verified) {
      let runtime: BergamotRuntime;
      try {
        runtime = await this.loadedRuntime();
      } catch (err) {
        this.logger.warn(`bergamot: its WASM runtime could not start (${(err as Error).message}); it serves nothing`);
        break;
      }
      try {
        await runtime.loadModel(modelRef(pair), await readModel(pair), this.timeoutMs);
        this.accepted.push(pair);
      } catch (err) {
        // The failed load aborted that WASM instance: the next pair loads into a new one (with the good ones).
        await this.discardRuntime();
        this.logger.warn(
          `bergamot: model ${pair.key} in ${dir} refused: its files match the published checksums but Bergamot cannot load them (${(err as Error).message}); its pair is not offered`,
        );
      }
    }
    this.setServed();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const w of this.queue.splice(0)) w.reject(new Error('the bergamot engine stopped'));
    await this.discardRuntime();
  }

  pairs(): readonly LanguagePair[] {
    return this.served;
  }

  supports(from: LanguageCode, to: LanguageCode): boolean {
    return this.has(from, to);
  }

  translate(texts: string[], from: LanguageCode, to: LanguageCode, signal: AbortSignal): Promise<string[]> {
    const route = routeOf(this.accepted, from, to);
    if (!route) return Promise.reject(new TranslationFailure(`bergamot does not serve ${from}→${to}`));
    if (this.stopped) return Promise.reject(new Error('the bergamot engine stopped'));
    return new Promise<string[]>((resolve, reject) => {
      // A call abandoned while it waits leaves the queue; one already in the WASM runs on, its answer unused.
      const abandon = () => {
        const at = this.queue.indexOf(waiting);
        if (at >= 0) this.queue.splice(at, 1);
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      const settle =
        <T>(fn: (value: T) => void) =>
        (value: T) => {
          signal.removeEventListener('abort', abandon);
          fn(value);
        };
      const waiting: Waiting = { route, texts, resolve: settle(resolve), reject: settle(reject) };
      if (signal.aborted) return abandon();
      signal.addEventListener('abort', abandon, { once: true });
      this.queue.push(waiting);
      void this.pump();
    });
  }

  /** Runs the oldest waiting texts' route with every text waiting for that route (up to MAX_BATCH_TEXTS). */
  private async pump(): Promise<void> {
    if (this.busy || !this.queue.length) return;
    this.busy = true;
    const key = routeKey(this.queue[0].route);
    const batch: Waiting[] = [];
    let size = 0;
    for (let i = 0; i < this.queue.length;) {
      const waiting = this.queue[i];
      if (routeKey(waiting.route) === key && (size === 0 || size + waiting.texts.length <= MAX_BATCH_TEXTS)) {
        size += waiting.texts.length;
        batch.push(...this.queue.splice(i, 1));
      } else i++;
    }
    try {
      const runtime = await this.loadedRuntime();
      const answers = await runtime.translate(
        batch[0].route.map(modelRef),
        batch.flatMap((w) => w.texts),
        this.timeoutMs,
      );
      let at = 0;
      for (const w of batch) {
        w.resolve(answers.slice(at, at + w.texts.length));
        at += w.texts.length;
      }
    } catch (err) {
      // Whatever failed inside the WASM may have aborted it: the next call gets a new runtime with the models.
      await this.discardRuntime();
      for (const w of batch) w.reject(new Error(`bergamot: ${(err as Error).message}`));
    } finally {
      this.busy = false;
      void this.pump();
    }
  }

  /** The runtime with every accepted model loaded, started (again) when there is none. */
  private loadedRuntime(): Promise<BergamotRuntime> {
    this.runtime ??= this.startRuntime().catch((err: unknown) => {
      this.runtime = undefined;
      throw err;
    });
    return this.runtime;
  }

  private async startRuntime(): Promise<BergamotRuntime> {
    const runtime = await BergamotRuntime.start((line) => this.logger.debug(`marian: ${line}`), this.timeoutMs);
    for (const pair of [...this.accepted]) {
      try {
        await runtime.loadModel(modelRef(pair), await readModel(pair), this.timeoutMs);
      } catch (err) {
        // Its files changed or went since boot: that pair goes; the others are loaded into a fresh runtime.
        await runtime.stop();
        this.accepted = this.accepted.filter((p) => p !== pair);
        this.setServed();
        this.logger.warn(`bergamot: model ${pair.key} could not be loaded again (${(err as Error).message}); its pair is no longer offered`);
        return this.startRuntime();
      }
    }
    return runtime;
  }

  private async discardRuntime(): Promise<void> {
    const runtime = this.runtime;
    this.runtime = undefined;
    if (runtime) await runtime.then((r) => r.stop()).catch(() => undefined);
  }

  private setServed(): void {
    this.served = servedPairs(this.accepted);
    this.has = pairSet(this.served);
  }
}

/** The pairs the accepted models serve: each one's own, and X→Y through English where X→eng and eng→Y are there. */
export function servedPairs(models: readonly { from: LanguageCode; to: LanguageCode }[]): LanguagePair[] {
  const direct = models.map(({ from, to }) => ({ from, to }));
  const has = pairSet(direct);
  const viaEnglish = models.flatMap((into) =>
    into.to !== 'eng'
      ? []
      : models.filter((out) => out.from === 'eng' && out.to !== into.from && !has(into.from, out.to)).map((out) => ({ from: into.from, to: out.to })),
  );
  return [...direct, ...viaEnglish];
}

/** The model, or the two models through English, that translate from → to. */
function routeOf(models: readonly VerifiedPair[], from: LanguageCode, to: LanguageCode): VerifiedPair[] | undefined {
  const direct = models.find((m) => m.from === from && m.to === to);
  if (direct) return [direct];
  const into = models.find((m) => m.from === from && m.to === 'eng');
  const out = models.find((m) => m.from === 'eng' && m.to === to);
  return into && out ? [into, out] : undefined;
}

const routeKey = (route: VerifiedPair[]) => route.map((p) => p.key).join('>');
const modelRef = (pair: VerifiedPair): ModelRef => ({ from: pair.key.slice(0, 2), to: pair.key.slice(2) });
