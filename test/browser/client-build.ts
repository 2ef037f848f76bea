import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_DIST, ROOT } from './paths';

/** Written into the build folder after a build: the mode it was built in. */
const STAMP = join(CLIENT_DIST, '.browser-build');
const MODE = 'production';
/** What the client build is made of: its sources and config, and the installed packages' versions. */
const INPUTS = [join(ROOT, 'client'), join(ROOT, 'package.json'), join(ROOT, 'package-lock.json')];

function newestMtime(path: string): number {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path)
    .filter((entry) => entry !== 'node_modules' && entry !== 'dist' && !entry.startsWith('.'))
    .reduce((newest, entry) => Math.max(newest, newestMtime(join(path, entry))), 0);
}

/** Why the browser tests' client build must be (re)built, or null when it is current. */
export function clientBuildStale(): string | null {
  if (!existsSync(join(CLIENT_DIST, 'index.html')) || !existsSync(STAMP)) return 'no build yet';
  if (readFileSync(STAMP, 'utf8').trim() !== MODE) return `the build is not a ${MODE} build`;
  const built = statSync(STAMP).mtimeMs;
  return INPUTS.some((input) => newestMtime(input) > built) ? 'client sources changed' : null;
}

/**
 * A production build of the client (jest runs with NODE_ENV=test, under which Vite would build React's
 * development runtime), rebuilt whenever a client source is newer than the last build.
 */
export function buildClientForBrowserTests(): void {
  const reason = clientBuildStale();
  if (!reason) return;
  console.log(`browser tests: building the client (${reason})…`);
  execFileSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      'client/vite.config.mts',
      '--mode',
      MODE,
      '--logLevel',
      'warn',
      '--outDir',
      CLIENT_DIST,
      '--emptyOutDir',
    ],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: MODE },
    },
  );
  writeFileSync(STAMP, `${MODE}\n`);
}
