import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { JobName } from '#shared/contracts/queues';
import { TRANSLATION_READY_MAX_LEN, TRANSLATION_READY_STREAM, TranslateMessagePayload, TranslationReadyNotice } from '#shared/contracts/translation';
import type { LanguageCode } from '#shared/contracts/languages';
import { RedisService } from '#shared/redis/redis.service';
import { OutboxJobOwner, OutboxQueryable, OutboxRow, UnneededRows } from '../outbox/outbox-job-owner';
import { isSystemMessage } from '../push/system-message';
import { isLanguageCode } from './language-codes';
import { TextTranslator } from './text-translator';
import { TranslationFailure } from './translation-engine';
import { TranslationEngines } from './translation-engines';
import { Reader, sourceMd5, TranslationQueries } from './translation-queries';

/** What one translate job did, as BullMQ keeps it: the languages stored, and why nothing was when it wasn't. */
export interface TranslateOutcome {
  stored: string[];
  skipped?: 'gone' | 'deleted' | 'system-message' | 'empty' | 'too-long' | 'no-language' | 'no-readers' | 'edited';
  failed?: string[];
}

/**
 * Translates a message (after its commit, or after an edit) into each distinct reading language of the other
 * participants that differs from the message's, the most common first, at most TRANSLATION_MAX_LANGUAGES. Offer
 * notes and other system messages, empty and overlong texts are never translated; a message deleted meanwhile
 * does nothing. Each stored translation is announced to the servers (TranslationReadyNotice), which give it to
 * that language's readers live. An engine that fails or times out fails the job, which BullMQ retries with
 * back-off (TRANSLATION_ATTEMPTS, TRANSLATION_BACKOFF_MS) and then gives up on; the languages already stored
 * are not translated again.
 *
 * It is the translate job's outbox owner too: a message no engine could translate for any reader gets no job.
 */
@Injectable()
export class TranslateMessageJob implements OutboxJobOwner {
  readonly job = JobName.TranslateMessage;
  private readonly logger = new Logger(TranslateMessageJob.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly engines: TranslationEngines,
    private readonly translator: TextTranslator,
    private readonly queries: TranslationQueries,
    private readonly redis: RedisService,
  ) {}

  async unneeded(rows: OutboxRow[], db: OutboxQueryable): Promise<UnneededRows> {
    const messageOf = (row: OutboxRow) => String(row.payload.messageId);
    await this.engines.start();
    const wanted = await this.queries.translatable(rows.map(messageOf), this.engines.pairs(), db);
    return { rowIds: new Set(rows.filter((r) => !wanted.has(messageOf(r))).map((r) => r.id)), afterDispatch: async () => undefined };
  }

  delayMs(): number {
    return 0;
  }

  retry(): { attempts: number; backoffMs: number } {
    return { attempts: this.config.TRANSLATION_ATTEMPTS, backoffMs: this.config.TRANSLATION_BACKOFF_MS };
  }

  async run(payload: TranslateMessagePayload): Promise<TranslateOutcome> {
    const message = await this.queries.message(payload.messageId);
    if (!message) return { stored: [], skipped: 'gone' };
    if (message.deleted) return { stored: [], skipped: 'deleted' };
    if (isSystemMessage(message)) return { stored: [], skipped: 'system-message' };
    if (!message.text.trim()) return { stored: [], skipped: 'empty' };
    if (message.text.length > this.config.TRANSLATION_MAX_CHARS) {
      this.logger.log(`message ${message.code}: ${message.text.length} characters, over TRANSLATION_MAX_CHARS; not translated`);
      return { stored: [], skipped: 'too-long' };
    }
    const from = message.lang;
    if (!isLanguageCode(from)) return { stored: [], skipped: 'no-language' };
    await this.engines.start();
    const md5 = sourceMd5(message.text);
    const done = await this.queries.translatedLanguages(message.id, md5);
    const targets = this.targets(await this.queries.readers(payload.groupId, message.author_id), from).filter((t) => !done.has(t.lang));
    if (!targets.length) return { stored: [], skipped: 'no-readers' };
    const stored: string[] = [];
    const failed: string[] = [];
    let retryable: Error | undefined;
    for (const { lang, readerCodes } of targets) {
      try {
        const translated = await this.translator.translate(message.text, from, lang);
        if (translated.text === message.text) continue;
        if (!(await this.queries.store(message.id, lang, translated.text, translated.engine, md5))) return { stored, skipped: 'edited' };
        stored.push(lang);
        await this.announce({
          groupCode: message.group_code,
          code: message.code,
          seq: Number(message.seq),
          createdAt: new Date(message.created_at).toISOString(),
          lang,
          translation: translated.text,
          sourceEditedAt: message.edited_at ? new Date(message.edited_at).toISOString() : null,
          readerCodes,
        });
      } catch (err) {
        if (err instanceof TranslationFailure) {
          failed.push(lang);
          this.logger.warn(`message ${message.code} ${from}→${lang}: ${err.message}; not translated`);
        } else retryable ??= err as Error;
      }
    }
    if (retryable) {
      this.logger.warn(`message ${message.code} ${from}→…: ${retryable.message}; retried with back-off`);
      throw retryable;
    }
    return { stored, ...(failed.length ? { failed } : {}) };
  }

  /** The readers' languages that differ from the message's and some engine serves, the most readers first, capped. */
  private targets(readers: Reader[], from: LanguageCode): { lang: LanguageCode; readerCodes: string[] }[] {
    const byLang = new Map<LanguageCode, string[]>();
    for (const r of readers) {
      if (!isLanguageCode(r.lang) || r.lang === from || !this.engines.engineFor(from, r.lang)) continue;
      byLang.set(r.lang, [...(byLang.get(r.lang) ?? []), r.code]);
    }
    return [...byLang]
      .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
      .slice(0, this.config.TRANSLATION_MAX_LANGUAGES)
      .map(([lang, readerCodes]) => ({ lang, readerCodes }));
  }

  /** One server takes it to the readers live; a notice that goes nowhere loses nothing (REST and sync read the row). */
  private async announce(notice: TranslationReadyNotice): Promise<void> {
    const stream = this.redis.key(...TRANSLATION_READY_STREAM);
    const trim = { TRIM: { strategy: 'MAXLEN', strategyModifier: '~', threshold: TRANSLATION_READY_MAX_LEN } } as const;
    await this.redis.client.xAdd(stream, '*', { n: JSON.stringify(notice) }, trim).catch((err: Error) => {
      this.logger.warn(`translation of ${notice.code} stored, not announced live: ${err.message}`);
    });
  }
}
