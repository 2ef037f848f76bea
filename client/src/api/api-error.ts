/** The server's one error envelope (architecture: REST contract). */
export interface ErrorEnvelope {
  code: number;
  message: string;
  data?: { brokenRules?: string[]; [key: string]: unknown };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly method: string,
    readonly url: string,
    readonly body: ErrorEnvelope | null,
  ) {
    super(body?.message ?? `HTTP ${status}`);
    this.name = 'ApiError';
  }

  /** The translation key the server answered with, if any. */
  get key(): string | null {
    return this.body?.message ?? null;
  }
}

export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  return (
    typeof value === 'object' && value !== null && typeof (value as ErrorEnvelope).code === 'number' && typeof (value as ErrorEnvelope).message === 'string'
  );
}
