import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { tooManyRequests } from '../../common/errors';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { RedisService } from '#shared/redis/redis.service';
import { RedisScript } from '#shared/redis/redis-script';

// Takes one attempt against every counter that is below its limit, atomically: if any checked counter
// is full nothing is counted and the longest remaining window is answered. KEYS: the counters, then the
// "known pair" key; ARGV: window ms, then per counter its limit (0 = counted but not checked).
const TAKE_SCRIPT = `
local n = #KEYS - 1
local window = tonumber(ARGV[1])
local wait = 0
for i = 1, n do
  local limit = tonumber(ARGV[i + 1])
  if limit > 0 and tonumber(redis.call('GET', KEYS[i]) or '0') >= limit then
    wait = math.max(wait, redis.call('PTTL', KEYS[i]))
  end
end
if wait > 0 then return wait end
for i = 1, n do
  if redis.call('INCR', KEYS[i]) == 1 then redis.call('PEXPIRE', KEYS[i], window) end
end
return 0`;
const takeScript = new RedisScript(TAKE_SCRIPT);

// A success gives the attempt back: DECR only what still exists (an expired window must not go negative).
const REFUND_SCRIPT = `
for i = 1, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 and tonumber(redis.call('DECR', KEYS[i])) <= 0 then redis.call('DEL', KEYS[i]) end
end
return 0`;
const refundScript = new RedisScript(REFUND_SCRIPT);

/** What one login attempt holds until it is known to have succeeded or failed. */
export interface LoginAttempt {
  keys: { ip: string; account: string; pair: string; known: string };
}

/**
 * Login throttling that limits what an attacker needs, not what a busy office does (issue 15 item 8,
 * issue 16 item 14). Counted per fixed window (AUTH_RATE_LIMIT_WINDOW), and only failures stay counted:
 *
 * - per client IP, failed attempts on any account (AUTH_RATE_LIMIT_IP): many people behind one NAT
 *   logging in successfully never hit it;
 * - per account, failed attempts from anywhere (AUTH_RATE_LIMIT_EMAIL): slows guessing one password
 *   from many addresses;
 * - per (account, IP), failed attempts (AUTH_RATE_LIMIT_EMAIL too). An IP that logged in to the account
 *   successfully before (within REFRESH_TOKEN_TTL_REMEMBER) is exempt from the account-wide counter and
 *   limited only by its own, so an attacker flooding the account from elsewhere cannot lock its owner out.
 *
 * An attempt is counted before the password is checked (so parallel attempts are counted exactly) and
 * given back when it succeeds.
 */
@Injectable()
export class LoginThrottleService {
  constructor(
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Counts the attempt, or throws 429 with Retry-After when a counter that applies is full. */
  async begin(instanceId: string, email: string, ip: string | undefined): Promise<LoginAttempt> {
    const account = accountId(instanceId, email);
    const client = ip ?? 'unknown';
    const keys = {
      ip: this.redis.key('ratelimit', 'login:fail:ip', client),
      account: this.redis.key('ratelimit', 'login:fail:account', account),
      pair: this.redis.key('ratelimit', 'login:fail:pair', account, client),
      known: this.redis.key('login:known', account, client),
    };
    const known = (await this.redis.client.exists(keys.known)) === 1;
    const { AUTH_RATE_LIMIT_IP: perIp, AUTH_RATE_LIMIT_EMAIL: perAccount, AUTH_RATE_LIMIT_WINDOW: window } = this.config;
    const waitMs = Number(
      await takeScript.run(this.redis.client, {
        keys: [keys.ip, keys.account, keys.pair, keys.known],
        arguments: [String(window * 1000), String(perIp), String(known ? 0 : perAccount), String(perAccount)],
      }),
    );
    if (waitMs > 0) throw tooManyRequests(Math.max(1, Math.ceil(waitMs / 1000)));
    return { keys };
  }

  /** The password was right: the attempt is given back, the pair's failures forgotten, and the IP known. */
  async succeeded(attempt: LoginAttempt): Promise<void> {
    const { ip, account, pair, known } = attempt.keys;
    await refundScript.run(this.redis.client, { keys: [ip, account] });
    await this.redis.client.del(pair);
    await this.redis.client.set(known, '1', { EX: this.config.REFRESH_TOKEN_TTL_REMEMBER });
  }

  /** A new account's IP is known to it from the start (its owner just chose the password there). */
  async registered(instanceId: string, email: string, ip: string | undefined): Promise<void> {
    const known = this.redis.key('login:known', accountId(instanceId, email), ip ?? 'unknown');
    await this.redis.client.set(known, '1', { EX: this.config.REFRESH_TOKEN_TTL_REMEMBER });
  }
}

/** The e-mail is hashed so Redis holds no addresses. */
export function accountId(instanceId: string, email: string): string {
  return createHash('sha256').update(`${instanceId}:${email.trim().toLowerCase()}`).digest('hex').slice(0, 32);
}
