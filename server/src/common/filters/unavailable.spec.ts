import { isDependencyUnavailable } from './unavailable';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });
const selfCaused = new Error('a') as Error & { cause?: unknown };
selfCaused.cause = selfCaused;

describe('isDependencyUnavailable', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['Postgres shutting down', withCode('57P01', 'terminating connection due to administrator command')],
    ['Postgres starting up', withCode('57P03', 'the database system is starting up')],
    ['a Postgres connection exception', withCode('08006')],
    ['a pool that lost its connection', new Error('Connection terminated unexpectedly')],
    ['Redis loading its data', new Error('LOADING Redis is loading the dataset in memory')],
    ['a closed Redis client', new Error('The client is closed')],
    ['TypeORM wrapping a driver error', Object.assign(new Error('query failed'), { driverError: withCode('ECONNRESET') })],
    ['a cause chain', new Error('outer', { cause: withCode('ETIMEDOUT') })],
  ])('says yes for %s', (_, error) => {
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error', withCode('42601')],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a message that merely mentions loading', new Error('error while LOADING the page')],
    ['not an error at all', 'ECONNREFUSED'],
    ['a cycle of causes', selfCaused],
  ])('says no for %s', (_, error) => {
    expect(isDependencyUnavailable(error)).toBe(false);
  });
});
