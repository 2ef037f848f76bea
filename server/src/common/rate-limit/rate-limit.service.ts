import { Injectable } from '@nestjs/common';
import { RedisService } from '#shared/redis/redis.service';
import { tooManyRequests } from '../errors';
import { RedisScript } from '#shared/redis/redis-script';

/** One limit: at most `limit` hits per `windowSeconds` for the key made of `name` and `id`. */
export interface RateLimitRule {
  /** what is limited, e.g. 'login:ip' */
  name: string;
  /** who is limited, e.g. an IP address or a hashed e-mail */
  id: string;
  limit: number;
  windowSeconds: number;
  /** units this hit spends; 1 unless said (an image upload spends more, see FileUploadBudget) */
  cost?: number;
}

export interface RateLimitResult {
  allowed: boolean;
  /** seconds until every exceeded window has reset; 0 when allowed */
  retryAfter: number;
}

// Fixed windows: each key counts its hits and expires at the end of the window opened by its first hit.
// All rules are counted in one script call, so a check costs one Redis round trip and is atomic.
// ARGV: each key's window in ms, then each key's cost.
const HIT_SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  local n = redis.call('INCRBY', key, ARGV[#KEYS + i])
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then
    ttl = tonumber(ARGV[i])
    redis.call('PEXPIRE', key, ttl)
  end
  out[2 * i - 1] = n
  out[2 * i] = ttl
end
return out`;
const hitScript = new RedisScript(HIT_SCRIPT);

/** Counts hits against fixed-window limits kept in Redis, shared by every server node. */
@Injectable()
export class RateLimitService {
  constructor(private readonly redis: RedisService) {}

  /** Counts one hit against every rule; not allowed if any rule's window is already full. */
  async hit(rules: RateLimitRule[]): Promise<RateLimitResult> {
    if (rules.length === 0) return { allowed: true, retryAfter: 0 };
    const reply = (await hitScript.run(this.redis.client, {
      keys: rules.map((r) => this.redis.key('ratelimit', r.name, r.id)),
      arguments: [...rules.map((r) => String(r.windowSeconds * 1000)), ...rules.map((r) => String(r.cost ?? 1))],
    })) as number[];
    let allowed = true;
    let retryAfterMs = 0;
    rules.forEach((rule, i) => {
      if (Number(reply[2 * i]) <= rule.limit) return;
      allowed = false;
      retryAfterMs = Math.max(retryAfterMs, Number(reply[2 * i + 1]));
    });
    return { allowed, retryAfter: allowed ? 0 : Math.max(1, Math.ceil(retryAfterMs / 1000)) };
  }

  /** Like hit(), but throws 429 with Retry-After when a limit is exceeded. */
  async consume(rules: RateLimitRule[]): Promise<void> {
    const { allowed, retryAfter } = await this.hit(rules);
    if (!allowed) throw tooManyRequests(retryAfter);
  }
}
