import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Debian's nginx (`apt-get install nginx`; .ci/run installs it). */
export const NGINX = '/usr/sbin/nginx';

// From __filename: tsx, loading this file for scripts/load/cluster.mts, sets it but not __dirname.
const DEPLOYED = path.resolve(path.dirname(__filename), '..', '..', 'deploy', 'nginx.conf');

/** Fails with what to install, for a run that needs nginx on a machine without it. */
export function requireNginx(): void {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is missing: install Debian's nginx (apt-get install nginx), as .ci/run does`);
}

/**
 * deploy/nginx.conf (an http-level include in the compose image), read from the file and changed only where a
 * process in a temp folder needs it: the upstream's servers (their parameters kept) and the listen address.
 * Wrapped in the main context nginx needs to run unprivileged in the foreground with its pid, logs and temp
 * files in `dir`.
 */
export function nginxConfig(dir: string, listenPort: number, serverPorts: number[]): string {
  const deployed = readFileSync(DEPLOYED, 'utf8');
  const upstream = /^(\s*)server server:3000(\s[^;]*)?;$/m;
  const listen = /^(\s*)listen 80;$/m;
  if (!upstream.test(deployed) || !listen.test(deployed))
    throw new Error('deploy/nginx.conf no longer has "server server:3000 …;" and "listen 80;": update test/utils/nginx.ts');
  const site = deployed
    .replace(upstream, (_, indent: string, params = '') => serverPorts.map((port) => `${indent}server 127.0.0.1:${port}${params};`).join('\n'))
    .replace(listen, (_, indent: string) => `${indent}listen 127.0.0.1:${listenPort};`);
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, `${name}-temp`)};`;
  return `daemon off;
worker_processes 1;
worker_rlimit_nofile 20000;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} warn;
events { worker_connections 16000; }
http {
  access_log off;
  client_body_temp_path ${path.join(dir, 'body-temp')};
  ${temp('proxy')}
  ${temp('fastcgi')}
  ${temp('uwsgi')}
  ${temp('scgi')}
${site}
}
`;
}

/** nginx's arguments for the config written to `dir`/nginx.conf (-e: no attempt at the system's error log before it is read). */
export function nginxArgs(dir: string): string[] {
  return ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', path.join(dir, 'nginx.conf')];
}
