import { TranslationFailure } from './translation-engine';

/**
 * One HTTP call of an engine adapter, answered as parsed JSON. A network error, a timeout and a 5xx or 429 throw a
 * plain Error (worth retrying); any other 4xx and an answer that is not JSON throw TranslationFailure.
 */
export async function engineRequest(url: string, init: RequestInit & { signal: AbortSignal }): Promise<unknown> {
  const response = await fetch(url, init);
  const body = await response.text();
  if (response.status >= 500 || response.status === 429) throw new Error(`${new URL(url).host} answered ${response.status}`);
  if (!response.ok) throw new TranslationFailure(`${new URL(url).host} answered ${response.status}: ${body.slice(0, 200)}`);
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new TranslationFailure(`${new URL(url).host} answered something that is not JSON: ${body.slice(0, 80)}`);
  }
}

/** The signal of a call's deadline, joined with the job's own. */
export function withDeadline(signal: AbortSignal, ms: number): AbortSignal {
  return AbortSignal.any([signal, AbortSignal.timeout(ms)]);
}
