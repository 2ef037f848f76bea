import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../..');
/** The browser tests build into their own folder, so a developer's client/dist is left alone. */
export const CLIENT_DIST = join(ROOT, 'test/browser/artifacts/dist');
export const ARTIFACTS = join(ROOT, 'test/browser/artifacts');
export const BROWSER_RUN_VAR = 'PARLEY_BROWSER_TEST_RUN';
