/** Global setup puts the per-run database and Redis prefix here; jest workers inherit it. */
export const RUN_VAR = 'PARLEY_TEST_RUN';

export interface TestRun {
  DATABASE_URL: string;
  REDIS_URL: string;
  REDIS_PREFIX: string;
  database: string;
  adminUrl: string;
}

export function readTestRun(): TestRun {
  const raw = process.env[RUN_VAR];
  if (!raw) throw new Error(`${RUN_VAR} is not set: run the tests through jest (global setup makes the database)`);
  return JSON.parse(raw) as TestRun;
}

/** The environment an app under test boots with; tests pass overrides for what they exercise. */
export function testEnv(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  const run = readTestRun();
  return {
    NODE_ENV: 'test',
    DATABASE_URL: run.DATABASE_URL,
    REDIS_URL: run.REDIS_URL,
    REDIS_PREFIX: run.REDIS_PREFIX,
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    LOG_LEVEL: 'silent',
    MIGRATIONS_RUN: 'false',
    AUTH_RATE_LIMIT_IP: '100000',
    AUTH_RATE_LIMIT_EMAIL: '100000',
    CHAT_SEND_RATE_LIMIT: '100000',
    CHAT_GROUP_CREATE_RATE_LIMIT: '100000',
    CHAT_PEOPLE_ADD_RATE_LIMIT: '100000',
    CHAT_RENAME_RATE_LIMIT: '100000',
    UPLOAD_RATE_LIMIT: '100000',
    JOB_CREATE_RATE_LIMIT: '100000',
    OFFER_CREATE_RATE_LIMIT: '100000',
    OFFER_REVISE_RATE_LIMIT: '100000',
    OFFER_WITHDRAW_RATE_LIMIT: '100000',
    // Send admission reads this machine's load: a busy test machine is not the overload a case means to test, so it
    // is off unless a case turns a signal on (0 leaves a signal out).
    OVERLOAD_FANOUT_LAG_MS: '0',
    OVERLOAD_INSERT_WAIT_MS: '0',
    OVERLOAD_LOOP_DELAY_MS: '0',
    PORT: '0',
    ...overrides,
  };
}
