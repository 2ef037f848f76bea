import { fakeToken } from '../../../jest/fake-token';
import { EXPIRED_REFRESH_WINDOW_MS, REFRESH_LEAD_MS, decodeToken, planRefresh } from './token';

describe('decodeToken', () => {
  it('reads the claims of a JWT, including non-ASCII ones', () => {
    const token = fakeToken({ unique_name: 'u1', nameid: 'zażółć@example.test', role: 50, exp: 1000, iat: 100 });
    expect(decodeToken(token)).toEqual({ unique_name: 'u1', nameid: 'zażółć@example.test', role: 50, exp: 1000, iat: 100 });
  });

  it('answers null for anything else', () => {
    expect(decodeToken(null)).toBeNull();
    expect(decodeToken('abc')).toBeNull();
    expect(decodeToken('a.b.c')).toBeNull();
    expect(decodeToken(fakeToken({ unique_name: 'u1' }))).toBeNull();
  });
});

describe('planRefresh', () => {
  const exp = 10_000; // seconds
  const expMs = exp * 1000;

  it('schedules the refresh 20 s before expiry', () => {
    expect(REFRESH_LEAD_MS).toBe(20_000);
    expect(planRefresh(exp, expMs - 900_000)).toEqual({ kind: 'schedule', delayMs: 880_000 });
    expect(planRefresh(exp, expMs - 20_001)).toEqual({ kind: 'schedule', delayMs: 1 });
  });

  it('refreshes at once within the last 20 s and after expiry for less than 600 s', () => {
    expect(planRefresh(exp, expMs - 20_000)).toEqual({ kind: 'refresh-now' });
    expect(planRefresh(exp, expMs)).toEqual({ kind: 'refresh-now' });
    expect(planRefresh(exp, expMs + 599_999)).toEqual({ kind: 'refresh-now' });
  });

  it('refuses a token that expired 600 s ago or more', () => {
    expect(EXPIRED_REFRESH_WINDOW_MS).toBe(600_000);
    expect(planRefresh(exp, expMs + 600_000)).toEqual({ kind: 'too-late' });
    expect(planRefresh(exp, expMs + 3_600_000)).toEqual({ kind: 'too-late' });
  });
});
