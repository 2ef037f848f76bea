/**
 * Waiting in tests. A test waits for the condition it needs (`waitFor`), never for a fixed time: a fixed time is
 * too short on a busy machine and wasted on a quiet one. `pause` is the one exception, for where the passing of
 * time is itself the point. `within` bounds a wait for an event (a promise) that may never come.
 */

export interface WaitOptions<T> {
  /** Whether the value read is the awaited one; by default, whether it is truthy. */
  until?: (value: T) => boolean;
  /** Default 5 s. */
  timeoutMs?: number;
  /** Time between two reads; default 25 ms. */
  intervalMs?: number;
  /** What is awaited, for the failure; by default the source of `read` (and `until`). Read only on a failure. */
  message?: string | (() => string);
}

const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_INTERVAL_MS = 25;

/**
 * Reads until the value is the awaited one and returns it. Fails after the timeout, saying what it waited for and
 * the last value it saw. An error thrown by `read` fails the wait at once: a read that may fail says so itself.
 */
export async function waitFor<T>(read: () => T | Promise<T>, options: WaitOptions<T> = {}): Promise<T> {
  const { until = Boolean, timeoutMs = DEFAULT_TIMEOUT_MS, intervalMs = DEFAULT_INTERVAL_MS, message } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (until(value)) return value;
    if (Date.now() > deadline) {
      const what = typeof message === 'function' ? message() : (message ?? describeCheck(read, options.until));
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last value: ${describeValue(value)}`);
    }
    await sleep(intervalMs);
  }
}

/**
 * Lets `ms` pass on purpose, only where the passing of time is the point: to see that nothing (more) arrives
 * within it, to let a time window of the system under test close, or to pace a sender as a real client would.
 * The caller says which in a comment. Waiting for something to happen is `waitFor`'s job.
 */
export function pause(ms: number): Promise<void> {
  return sleep(ms);
}

/** The promise's value, or a failure naming what did not happen within `timeoutMs`. */
export function within<T>(promise: Promise<T>, timeoutMs: number, message: string | (() => string)): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${typeof message === 'function' ? message() : message} within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timedOut]).finally(() => clearTimeout(timer));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const MAX_SHOWN = 500;

const shorten = (text: string) => (text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text);

function describeCheck(read: () => unknown, until?: (value: never) => boolean): string {
  const source = (fn: (...args: never[]) => unknown) => shorten(fn.toString().replace(/\s+/g, ' '));
  return until ? `${source(read)} to satisfy ${source(until)}` : source(read);
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return shorten(JSON.stringify(value));
  try {
    return shorten(JSON.stringify(value) ?? String(value));
  } catch {
    return shorten(String(value));
  }
}
