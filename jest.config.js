/** One jest run for every tier: server units and e2e against real Postgres and Redis (client projects join here). */
const swc = ['@swc/jest', { swcrc: false, ...require('./test/utils/swc-options.json') }];

module.exports = {
  projects: [
    {
      displayName: 'server',
      testEnvironment: 'node',
      rootDir: __dirname,
      roots: ['<rootDir>/server', '<rootDir>/workers', '<rootDir>/test'],
      testMatch: ['<rootDir>/server/**/*.spec.ts', '<rootDir>/workers/**/*.spec.ts', '<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      transform: { '^.+\\.ts$': swc },
      globalSetup: '<rootDir>/test/utils/global-setup.ts',
      globalTeardown: '<rootDir>/test/utils/global-teardown.ts',
      testTimeout: 30000,
    },
  ],
};
