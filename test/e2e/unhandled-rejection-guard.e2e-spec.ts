import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import swcOptions from '../utils/swc-options.json';

const ROOT = join(__dirname, '..', '..');

interface JestJson {
  testResults: { name: string; status: 'passed' | 'failed'; message: string }[];
}

/** Runs the fixtures under the server project's environment in a jest of their own and answers its JSON report. */
function runFixtures(): JestJson {
  const config = {
    rootDir: ROOT,
    roots: ['<rootDir>/test/utils/guard-fixtures'],
    testMatch: ['**/*.fixture.ts'],
    testEnvironment: '<rootDir>/test/utils/guarded-node-environment.ts',
    transform: { '^.+\\.ts$': ['@swc/jest', { swcrc: false, ...swcOptions }] },
  };
  const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/jest/bin/jest.js'), '--config', JSON.stringify(config), '--runInBand', '--json', '--ci'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  const start = run.stdout.indexOf('{');
  if (start < 0) throw new Error(`no jest report:\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(run.stdout.slice(start)) as JestJson;
}

describe('the unhandled-rejection guard of the server tests', () => {
  let report: JestJson;
  const result = (file: string) => report.testResults.find((r) => r.name.endsWith(file))!;

  beforeAll(() => {
    report = runFixtures();
  }, 70_000);

  it('fails a file whose promise rejects unhandled after its last hook, naming the reason', () => {
    expect(result('late.fixture.ts').status).toBe('failed');
    expect(result('late.fixture.ts').message).toMatch(/unhandled promise rejection\(s\) outside the tests[\s\S]*rejected after the last hook/);
  });

  it('fails a test that forgets a promise which rejects', () => {
    expect(result('during.fixture.ts').status).toBe('failed');
    expect(result('during.fixture.ts').message).toMatch(/rejected during a test/);
  });

  it('passes a file whose rejections are all handled', () => {
    expect(result('clean.fixture.ts').status).toBe('passed');
  });
});
