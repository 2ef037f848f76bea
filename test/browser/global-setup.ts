import serverGlobalSetup from '../utils/global-setup';
import { RUN_VAR } from '../utils/test-env';
import { buildClientForBrowserTests } from './client-build';
import { BROWSER_RUN_VAR } from './paths';

/**
 * Browser tests get their own database (restoring the server project's run if it started first),
 * and a production build of the client for the real server to serve (rebuilt when client sources changed).
 */
export default async function browserGlobalSetup(): Promise<void> {
  const previous = process.env[RUN_VAR];
  await serverGlobalSetup();
  process.env[BROWSER_RUN_VAR] = process.env[RUN_VAR];
  if (previous) process.env[RUN_VAR] = previous;

  if (process.env.PARLEY_SKIP_CLIENT_BUILD === '1') return;
  buildClientForBrowserTests();
}
