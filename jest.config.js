/** One jest run for every tier: server units and e2e against real Postgres and Redis (client projects join here). */
const swc = ['@swc/jest', { swcrc: false, ...require('./test/utils/swc-options.json') }];
const clientSwc = ['@swc/jest', { swcrc: false, ...require('./client/jest/swc-options.json') }];
// openid-client and what it imports ship only as ES modules: jest's CommonJS module system gets them compiled.
const ESM_PACKAGES = ['openid-client', 'oauth4webapi', 'jose'];
const esmTransform = {
  [`/node_modules/(${ESM_PACKAGES.join('|')})/.+\\.js$`]: [
    '@swc/jest',
    { swcrc: false, jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } },
  ],
};
const transformIgnorePatterns = [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`];

// #shared/* (package.json "imports", tsconfig "paths"): from the TypeScript sources here, from dist/ at runtime.
const SHARED_ALIAS = { '^#shared/(.*)$': '<rootDir>/shared/$1' };

// The fault cases among the e2e specs: they make their own failures, so they run as a tier of their own.
const FAULT_SPECS = ['chaos', 'drain', 'postgres-outage', 'push-resilience', 'redis-restart', 'rolling-restart', 'translation-resilience'].map(
  (name) => `test/e2e/${name}.e2e-spec.ts`,
);

module.exports = {
  // testTimeout is a global option (a project's own is ignored); browser specs set their own, longer one.
  // Generous, because an app boots in seconds on a quiet machine but several times slower on a busy shared one.
  testTimeout: 60000,
  // The files run in a worker process (not in jest's own, as one worker on two cores otherwise would), replaced
  // once a file leaves it above this size: what one file leaks cannot slow the files after it.
  workerIdleMemoryLimit: '1536MB',
  // A handle a failed case leaves open must not keep the run from ending after its last file.
  forceExit: true,
  projects: [
    {
      // Units beside their sources: no Postgres, no Redis, no network; seconds (npm run test:unit).
      displayName: 'unit',
      testEnvironment: '<rootDir>/test/utils/guarded-node-environment.ts',
      rootDir: __dirname,
      roots: ['<rootDir>/shared', '<rootDir>/server', '<rootDir>/workers'],
      testMatch: ['<rootDir>/shared/**/*.spec.ts', '<rootDir>/server/**/*.spec.ts', '<rootDir>/workers/**/*.spec.ts'],
      transform: { '^.+\\.ts$': swc, ...esmTransform },
      transformIgnorePatterns,
      moduleNameMapper: SHARED_ALIAS,
    },
    {
      // The real app (or a module of it) against the real Postgres and Redis, over HTTP and sockets (npm run test:e2e).
      displayName: 'e2e',
      // node, plus: an unhandled promise rejection anywhere in a file fails it (test/utils/guarded-node-environment.ts).
      testEnvironment: '<rootDir>/test/utils/guarded-node-environment.ts',
      rootDir: __dirname,
      roots: ['<rootDir>/test'],
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...FAULT_SPECS],
      transform: { '^.+\\.ts$': swc, ...esmTransform },
      transformIgnorePatterns,
      moduleNameMapper: SHARED_ALIAS,
      globalSetup: '<rootDir>/test/utils/global-setup.ts',
      globalTeardown: '<rootDir>/test/utils/global-teardown.ts',
    },
    {
      // What happens when a part fails: own Redis and Postgres restarted or cut, processes killed or drained (npm run test:chaos).
      displayName: 'faults',
      testEnvironment: '<rootDir>/test/utils/guarded-node-environment.ts',
      rootDir: __dirname,
      roots: ['<rootDir>/test'],
      testMatch: FAULT_SPECS.map((spec) => `<rootDir>/${spec}`),
      transform: { '^.+\\.ts$': swc, ...esmTransform },
      transformIgnorePatterns,
      moduleNameMapper: SHARED_ALIAS,
      globalSetup: '<rootDir>/test/utils/global-setup.ts',
      globalTeardown: '<rootDir>/test/utils/global-teardown.ts',
    },
    {
      displayName: 'client',
      testEnvironment: 'jsdom',
      rootDir: __dirname,
      roots: ['<rootDir>/client'],
      testMatch: ['<rootDir>/client/**/*.spec.{ts,tsx}'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/client/dist/'],
      transform: { '^.+\\.(ts|tsx)$': clientSwc },
      moduleNameMapper: {
        '^@/(.*)$': '<rootDir>/client/src/$1',
        '^@contracts/(.*)$': '<rootDir>/shared/contracts/$1',
        '\\.css$': 'identity-obj-proxy',
      },
      setupFilesAfterEnv: ['<rootDir>/client/jest/setup.ts'],
    },
    {
      displayName: 'browser',
      testEnvironment: 'node',
      rootDir: __dirname,
      roots: ['<rootDir>/test/browser'],
      testMatch: ['<rootDir>/test/browser/*.browser-spec.ts'],
      transform: { '^.+\\.ts$': swc, ...esmTransform },
      transformIgnorePatterns,
      moduleNameMapper: SHARED_ALIAS,
      globalSetup: '<rootDir>/test/browser/global-setup.ts',
      globalTeardown: '<rootDir>/test/browser/global-teardown.ts',
    },
  ],
};
