import type { Request } from 'express';

/** Paths the server answers itself; the client's history fallback never shadows them. */
const SERVER_PREFIXES = ['/api', '/socket.io', '/instance'];
const SERVER_PATHS = ['/assets/config.json'];
/**
 * Paths a probe or a scraper may be pointed at by habit: no client route, so they answer 404 rather than the
 * index page, which would make a misconfigured probe or scrape silently pass.
 */
const OPERATOR_PATHS = ['/metrics', '/health', '/healthz', '/livez', '/readyz', '/ready', '/live', '/status'];

/** Vite puts every hashed file under static/ (client/vite.config.mts: build.assetsDir). */
export const HASHED_ASSETS_DIR = 'static';

const underPrefix = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * A GET for a page of the client app: not the API, the socket, instance styles or config; asking for HTML,
 * or for anything (curl's default Accept) at a path that doesn't look like a file: a missing script stays a 404.
 */
export function isHistoryRequest(req: Pick<Request, 'method' | 'path' | 'headers'>): boolean {
  if (req.method !== 'GET') return false;
  const path = req.path.toLowerCase();
  if (SERVER_PREFIXES.some((prefix) => underPrefix(path, prefix)) || SERVER_PATHS.includes(path)) return false;
  if (OPERATOR_PATHS.some((prefix) => underPrefix(path.replace(/\/+$/, ''), prefix))) return false;
  const accept = req.headers.accept ?? '';
  if (accept.includes('text/html')) return true;
  return accept.includes('*/*') && !/\.[a-z0-9]+$/.test(path);
}

/** Hashed assets never change under their name; everything else (index.html, logo, worker) is revalidated. */
export function cacheControlFor(relativePath: string): string {
  const normalised = relativePath.replace(/\\/g, '/').replace(/^\/+/, '');
  return normalised.startsWith(`${HASHED_ASSETS_DIR}/`) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * The HTML shell's Content-Security-Policy. Scripts, workers, fetches and sockets only from our own origin
 * (the Vite build has no inline script; 'self' covers same-host ws:/wss: for Socket.IO). Styles also
 * inline: Mantine sets style attributes and injects its CSS variables in <style> elements (a CSS-only
 * allowance: no script runs from it). Images also from data:, blob: (files are fetched with the token and
 * shown as blobs) and https: (a custom logo, avatars of users who opted in to Gravatar). Nothing may frame
 * the app but itself, plugins are off, and forms and <base> cannot point elsewhere.
 */
export const SHELL_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "media-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');
