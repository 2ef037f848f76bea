import { z } from 'zod';

export const TRANSLATION_ENGINE_NAMES = ['apertium', 'bergamot', 'libretranslate', 'deepl'] as const;
export type TranslationEngineName = (typeof TRANSLATION_ENGINE_NAMES)[number];

/**
 * The ordered engine list: the first engine that serves a language pair translates it. '' or 'none' turns
 * machine translation off. Hosted engines send message text out of the server, so each is named here by the
 * operator, never picked up by itself.
 */
const engineList = z
  .string()
  .default('apertium')
  .transform((raw, ctx): TranslationEngineName[] => {
    const names = raw
      .split(',')
      .map((n) => n.trim().toLowerCase())
      .filter((n) => n && n !== 'none');
    const unknown = names.filter((n) => !(TRANSLATION_ENGINE_NAMES as readonly string[]).includes(n));
    if (unknown.length) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `unknown engine(s) ${unknown.join(', ')}: use ${TRANSLATION_ENGINE_NAMES.join(', ')} or none` });
      return z.NEVER;
    }
    return [...new Set(names)] as TranslationEngineName[];
  });

/** Machine translation of chat messages (the worker translates; the server reads and delivers). See docs/translation.md. */
export const TRANSLATION_CONFIG = {
  TRANSLATION_ENGINES: engineList,
  /** most languages one message is translated into (the readers' most common first) */
  TRANSLATION_MAX_LANGUAGES: z.coerce.number().int().min(1).max(7).default(3),
  /** longer messages are not translated */
  TRANSLATION_MAX_CHARS: z.coerce.number().int().min(1).max(10_000).default(5000),
  TRANSLATION_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  TRANSLATION_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(5),
  TRANSLATION_BACKOFF_MS: z.coerce.number().int().min(1).max(3_600_000).default(2000),
  /**
   * messages one worker translates at once: the jobs mostly wait on the engine, and Apertium's requests made
   * meanwhile go as one (16 kept 50 msg/s at p99 0.6 s on a loaded 2-core machine, where 4 fell behind)
   */
  TRANSLATION_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(16),
  /** how long (s) a translation of the same text, source and target is kept in Redis for reuse */
  TRANSLATION_CACHE_TTL: z.coerce
    .number()
    .int()
    .min(0)
    .default(7 * 24 * 3600),
  /** an apertium-apy the operator runs; unset: the worker starts apertium-apy itself when it is installed */
  APERTIUM_URL: z.string().url().optional(),
  APERTIUM_APY_BIN: z.string().min(1).default('apertium-apy'),
  /** where the installed pairs' modes are (Debian: /usr/share/apertium/modes) */
  APERTIUM_MODES_DIR: z.string().min(1).default('/usr/share/apertium/modes'),
  /**
   * Firefox Translations' models (Bergamot), laid out as Mozilla publishes them: a folder per pair (enpl, plen, …)
   * and Mozilla's registry.json with their checksums; unset: the bergamot engine serves nothing
   */
  BERGAMOT_MODELS_DIR: z.string().min(1).optional(),
  LIBRETRANSLATE_URL: z.string().url().optional(),
  LIBRETRANSLATE_API_KEY: z.string().min(1).optional(),
  DEEPL_API_KEY: z.string().min(1).optional(),
  /** unset: api-free.deepl.com for free keys (ending ':fx'), else api.deepl.com */
  DEEPL_URL: z.string().url().optional(),
};
