/** The server answered no (a 4xx other than timeout or rate limit): sending the same again would fail again. */
export class RejectedError extends Error {}

export const isRejection = (status: number): boolean => status >= 400 && status < 500 && status !== 408 && status !== 429;

export const OVERLOADED_KEY = 'SHARED.ERROR.OVERLOADED';

/** The server refused it under load and stored nothing (503 SHARED.ERROR.OVERLOADED): send the same again after retryAfterMs. */
export class OverloadedError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(OVERLOADED_KEY);
  }
}

/** The delay the server asked for when this answer is its overload refusal, else null. */
export function overloadedRetryAfter(status: number, key: string | null | undefined, data: Record<string, unknown> | undefined): number | null {
  if (status !== 503 || key !== OVERLOADED_KEY) return null;
  const ms = Number(data?.retryAfterMs);
  return Number.isFinite(ms) && ms > 0 ? ms : 1000;
}

const OVERLOAD_RETRY_CAP_MS = 30_000;

/** The server's delay doubled per refusal, with jitter (half to all of it), so refused senders don't all come back together. */
export const overloadRetryDelay = (retryAfterMs: number, refusals: number): number =>
  Math.min(OVERLOAD_RETRY_CAP_MS, retryAfterMs * 2 ** (refusals - 1)) * (0.5 + Math.random() / 2);

/** Client keys of messages the server refused: shown as failed, never re-sent by themselves (the retry button still can). */
const rejected = new Set<string>();
export const wasRejected = (clientKey: string): boolean => rejected.has(clientKey);
export const markRejected = (clientKey: string): void => void rejected.add(clientKey);
export const forgetRejection = (clientKey: string): void => void rejected.delete(clientKey);
