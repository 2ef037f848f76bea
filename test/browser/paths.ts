import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../..');
/**
 * The browser tests build into their own folder, so a developer's client/dist is left alone
 * (PARLEY_BROWSER_CLIENT_DIST moves it, e.g. so two runs at once don't rebuild each other's client).
 */
export const CLIENT_DIST = process.env.PARLEY_BROWSER_CLIENT_DIST ?? join(ROOT, 'test/browser/artifacts/dist');
export const ARTIFACTS = join(ROOT, 'test/browser/artifacts');
export const BROWSER_RUN_VAR = 'PARLEY_BROWSER_TEST_RUN';
