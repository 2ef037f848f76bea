import { createTestRun } from '../utils/global-setup';
import { buildClientForBrowserTests } from './client-build';
import { BROWSER_RUN_VAR } from './paths';

/**
 * Browser tests get a database and Redis prefix of their own, apart from the e2e tiers', and a production build of
 * the client for the real server to serve (rebuilt when client sources changed).
 */
export default async function browserGlobalSetup(): Promise<void> {
  process.env[BROWSER_RUN_VAR] = JSON.stringify(await createTestRun());

  if (process.env.PARLEY_SKIP_CLIENT_BUILD === '1') return;
  buildClientForBrowserTests();
}
