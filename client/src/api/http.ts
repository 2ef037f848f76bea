import { ApiError, isErrorEnvelope } from './api-error';
import { createResponseCache } from './response-cache';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  body?: unknown;
  /** GETs are cached unless false; a POST lookup (search, list) opts in with true. Changes never are. */
  cache?: boolean;
  /** false: the caller handles failures itself and the one error handler stays out. */
  handleErrors?: boolean;
  signal?: AbortSignal;
  /** 'blob': the body is read as bytes (file renditions); default: JSON or text. */
  responseType?: 'json' | 'blob';
  /** Extra request headers (e.g. Idempotency-Key); Authorization and Content-Type are set here. */
  headers?: Record<string, string>;
}

interface HttpHooks {
  getToken: () => string | null;
  onError: (error: ApiError) => Promise<void> | void;
}

let hooks: HttpHooks = { getToken: () => null, onError: () => undefined };
const cache = createResponseCache();

/** Wires the client to the session (token) and the error handler; called once at start. */
export function configureHttp(next: Partial<HttpHooks>): void {
  hooks = { ...hooks, ...next };
}

export function clearResponseCache(): void {
  cache.clear();
}

/** Tokens go to our own origin only, never to a third-party URL. */
export function isSameOrigin(url: string, base: string = window.location.href): boolean {
  try {
    return new URL(url, base).origin === new URL(base).origin;
  } catch {
    return false;
  }
}

async function readBody(response: Response, responseType: RequestOptions['responseType'] = 'json'): Promise<unknown> {
  if (response.status === 204) return undefined;
  if (responseType === 'blob' && response.ok) return response.blob();
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

async function send<T>(method: HttpMethod, url: string, options: RequestOptions, token: string | null): Promise<T> {
  const headers: Record<string, string> = { ...options.headers, Accept: options.responseType === 'blob' ? '*/*' : 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (token && isSameOrigin(url)) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw new ApiError(0, method, url, null);
  }
  const body = await readBody(response, options.responseType);
  if (!response.ok) throw new ApiError(response.status, method, url, isErrorEnvelope(body) ? body : null);
  return body as T;
}

/** The one HTTP client: token on same-origin calls, 10 s cache for lookups, the one error handler. */
export async function request<T>(method: HttpMethod, url: string, options: RequestOptions = {}): Promise<T> {
  const token = hooks.getToken();
  const cacheable = options.cache ?? method === 'GET';
  const cacheKey = `${method} ${options.responseType ?? 'json'} ${url} ${token ?? ''} ${options.body === undefined ? '' : JSON.stringify(options.body)}`;
  try {
    if (cacheable) {
      const hit = cache.get<T>(cacheKey);
      if (hit) return await hit;
      return await cache.set(cacheKey, send<T>(method, url, options, token));
    }
    const result = await send<T>(method, url, options, token);
    // A change may make any cached lookup stale.
    if (method !== 'GET') cache.clear();
    return result;
  } catch (err) {
    if (err instanceof ApiError && options.handleErrors !== false) await hooks.onError(err);
    throw err;
  }
}

export const http = {
  get: <T>(url: string, options?: Omit<RequestOptions, 'body'>) => request<T>('GET', url, options),
  post: <T>(url: string, body?: unknown, options?: RequestOptions) => request<T>('POST', url, { ...options, body }),
  put: <T>(url: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', url, { ...options, body }),
  patch: <T>(url: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', url, { ...options, body }),
  delete: <T>(url: string, options?: RequestOptions) => request<T>('DELETE', url, options),
};
