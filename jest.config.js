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

module.exports = {
  // testTimeout is a global option (a project's own is ignored); browser specs set their own, longer one.
  testTimeout: 30000,
  projects: [
    {
      displayName: 'server',
      // node, plus: an unhandled promise rejection anywhere in a file fails it (test/utils/guarded-node-environment.ts).
      testEnvironment: '<rootDir>/test/utils/guarded-node-environment.ts',
      rootDir: __dirname,
      roots: ['<rootDir>/shared', '<rootDir>/server', '<rootDir>/workers', '<rootDir>/test'],
      testMatch: ['<rootDir>/shared/**/*.spec.ts', '<rootDir>/server/**/*.spec.ts', '<rootDir>/workers/**/*.spec.ts', '<rootDir>/test/e2e/**/*.e2e-spec.ts'],
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
        '^@safety/(.*)$': '<rootDir>/shared/safety/$1',
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
