import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import serverGlobalSetup from '../utils/global-setup';
import { RUN_VAR } from '../utils/test-env';
import { BROWSER_RUN_VAR, CLIENT_DIST, ROOT } from './paths';

/**
 * Browser tests get their own database (restoring the server project's run if it started first),
 * and a fresh client build for the real server to serve.
 */
export default async function browserGlobalSetup(): Promise<void> {
  const previous = process.env[RUN_VAR];
  await serverGlobalSetup();
  process.env[BROWSER_RUN_VAR] = process.env[RUN_VAR];
  if (previous) process.env[RUN_VAR] = previous;

  if (process.env.PARLEY_SKIP_CLIENT_BUILD === '1') return;
  execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'client/vite.config.mts', '--logLevel', 'warn', '--outDir', CLIENT_DIST], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}
