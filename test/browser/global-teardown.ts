import serverGlobalTeardown from '../utils/global-teardown';
import { RUN_VAR } from '../utils/test-env';
import { BROWSER_RUN_VAR } from './paths';

/** Drops the browser tests' own database and keys, leaving the server project's run alone. */
export default async function browserGlobalTeardown(): Promise<void> {
  const own = process.env[BROWSER_RUN_VAR];
  if (!own) return;
  const previous = process.env[RUN_VAR];
  process.env[RUN_VAR] = own;
  try {
    await serverGlobalTeardown();
  } finally {
    if (previous === undefined) delete process.env[RUN_VAR];
    else process.env[RUN_VAR] = previous;
  }
}
