import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsEndpointOptions {
  port: number;
  host: string;
  /** When set, a scrape must send `Authorization: Bearer <token>`. */
  token?: string;
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The Prometheus endpoint on a port of its own, never on the public one: `GET /metrics` and nothing else.
 * Bound to loopback unless METRICS_HOST says otherwise (a scraper in the same network namespace or pod), and
 * behind a bearer token when METRICS_TOKEN is set.
 */
export async function startMetricsEndpoint(registry: Registry, options: MetricsEndpointOptions): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') return void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    if (options.token && !sameSecret(req.headers.authorization ?? '', `Bearer ${options.token}`)) {
      return void res.writeHead(401, { 'WWW-Authenticate': 'Bearer' }).end();
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(req.method === 'HEAD' ? undefined : text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

export const portOf = (server: http.Server): number => (server.address() as AddressInfo).port;
