/** Socket errors of a connection to a dependency that is down, restarting or unreachable. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** PostgreSQL: admin/crash shutdown, cannot connect now (starting or stopping), too many connections. */
const POSTGRES_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
/** What pg, TypeORM, node-redis and ioredis say when their connection went away (they carry no code). */
const CONNECTION_LOST =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Socket closed unexpectedly|The client is closed|Connection is closed|^LOADING /;

/**
 * Whether an error says a dependency (Postgres, Redis) is unavailable rather than that the request or the
 * code is wrong: such failures are answered 503, which the client retries, instead of 500. Looks through
 * TypeORM's `driverError` and standard `cause` chains.
 */
export function isDependencyUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current = error;
  while (current !== null && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || POSTGRES_CODES.has(code) || code.startsWith('08'))) return true;
    if (typeof message === 'string' && CONNECTION_LOST.test(message)) return true;
    const next = current as { driverError?: unknown; cause?: unknown };
    current = next.driverError ?? next.cause;
  }
  return false;
}
