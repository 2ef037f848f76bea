/** Machine translation of chat messages: what the worker tells the servers, and what a translate job carries. */

/**
 * Parts of the Redis stream (through RedisService.key) to which the worker adds a notice for each stored
 * translation; the servers read it as one consumer group, so one server takes each notice to the fan-out.
 */
export const TRANSLATION_READY_STREAM = ['translation', 'ready'] as const;
/** The servers' consumer group on TRANSLATION_READY_STREAM. */
export const TRANSLATION_READY_READERS = 'servers';
/** The stream keeps about this many notices (a notice is read within moments; older ones are of no use live). */
export const TRANSLATION_READY_MAX_LEN = 10_000;

/** One stored translation, for the readers of its language, live, right behind its message (field `n` of a stream entry). */
export interface TranslationReadyNotice {
  groupCode: string;
  code: string;
  /** the message's seq and when it was sent (ISO): the notice is delivered after it */
  seq: number;
  createdAt: string;
  lang: string;
  translation: string;
  /** the `editedAt` of the text it translates (null: never edited), so a client holding a newer edit ignores it */
  sourceEditedAt: string | null;
  /** the participants (never the author) who read in `lang` */
  readerCodes: string[];
}

/** Outbox topics 'message.created' and 'message.edited': translate the message as it is now (plus the row id). */
export interface TranslateMessagePayload {
  outboxId: string;
  groupId: string;
  messageId: string;
}

/** Outbox topic an edit writes in its own statement (the send writes 'message.created'). */
export const MESSAGE_EDITED_TOPIC = 'message.edited';

/**
 * Parts of the Redis key (through RedisService.key) under which the worker keeps the language pairs its engines
 * serve, as JSON `LanguagePairs`, refreshed while it runs: the servers tell clients from it where translation is off.
 */
export const TRANSLATION_PAIRS_KEY = ['translation', 'pairs'] as const;

export interface LanguagePairs {
  pairs: { from: string; to: string }[];
}

/** GET /api/translation: whether machine translation is on, and into which language from which. */
export interface TranslationStatusResponse {
  /** false: no engine configured, or none serves any pair (or no worker has said which it serves) */
  enabled: boolean;
  pairs: { from: string; to: string }[];
}

/**
 * A machine translation a server waits for (a job's title and description, asked for by a reader): never stored,
 * not retried (the reader is waiting). Answered as `TranslatedTexts`.
 */
export interface TranslateTextsPayload {
  texts: string[];
  from: string;
  to: string;
}

export interface TranslatedTexts {
  texts: string[];
  engine: string;
}

/** POST /api/job/{code}/machine-translation: the job's title and description machine-translated, never saved. */
export interface JobMachineTranslationResponse {
  /** the language translated into, and the version's it was translated from */
  lang: string;
  from: string;
  title: string;
  description: string;
  engine: string;
  /** always true: a machine translation, not one of the customer's versions */
  machine: true;
}
