// npm test: the typecheck, the lint (ESLint, then Prettier's check), then whatever build is stale (the launcher and browser tests run the built app),
// then every jest project. Exits with jest's code; extra arguments go to jest.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { LaunchError, ROOT, log, setLogName } from './lib/common.mts';
import { buildIfStale, tscBin } from './lib/build.mts';

const require = createRequire(import.meta.url);
setLogName('test');
const node = (args: string[]): number => spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' }).status ?? 1;

// The server side (server, worker, migrations, tests), the client and these scripts have separate tsconfigs.
for (const project of ['tsconfig.json', 'client/tsconfig.json', 'scripts/tsconfig.json']) {
  log(`typecheck (tsc -p ${project} --noEmit)…`);
  const typecheck = node([tscBin(), '-p', project, '--noEmit']);
  if (typecheck !== 0) {
    log(`typecheck of ${project} failed`);
    process.exit(typecheck);
  }
}
// eslint's package exports no path to its bin, so it is found under node_modules.
const lint: [name: string, args: string[]][] = [
  ['eslint', [join(ROOT, 'node_modules/eslint/bin/eslint.js'), '.', '--max-warnings', '0']],
  ['prettier --check', [require.resolve('prettier/bin/prettier.cjs'), '--check', '.', '--log-level', 'warn']],
];
for (const [name, args] of lint) {
  log(`lint (${name})…`);
  const status = node(args);
  if (status !== 0) {
    log(`lint failed (${name}); npm run lint:fix repairs what it can`);
    process.exit(status);
  }
}
// The API document docs/openapi.json (test/e2e/openapi.e2e-spec.ts keeps it equal to what the server serves),
// linted by Redocly with redocly.yaml; no telemetry and no update check (nothing leaves the machine). On Node 20
// Redocly prints a boxed notice that its later releases need Node 22: left out, the findings are shown.
log('lint (redocly lint docs/openapi.json)…');
const apiLint = spawnSync(process.execPath, [require.resolve('@redocly/cli/bin/cli.js'), 'lint', 'docs/openapi.json', '--format', 'summary'], {
  cwd: ROOT,
  encoding: 'utf8',
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
});
process.stdout.write(
  `${apiLint.stdout}${apiLint.stderr}`
    .split('\n')
    .filter((line) => !/[║╔╚]/.test(line))
    .join('\n'),
);
if (apiLint.status !== 0) {
  log('the OpenAPI document has lint errors (redocly lint docs/openapi.json)');
  process.exit(apiLint.status ?? 1);
}
try {
  await buildIfStale();
} catch (err) {
  log(`build failed: ${err instanceof LaunchError ? err.message : err}`);
  process.exit(1);
}
const jest = require.resolve('jest/bin/jest');
process.exit(node([jest, '--config', 'jest.config.js', ...process.argv.slice(2)]));
