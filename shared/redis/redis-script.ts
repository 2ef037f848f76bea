import { createHash } from 'node:crypto';
import type { RedisClientType } from 'redis';

/**
 * A Lua script run by its SHA1 (EVALSHA), so a hot script's text is not sent, and hashed by Redis, on every
 * call. When Redis does not know it (first use, or after a restart emptied its cache) it is run once with its
 * text (EVAL), which loads it.
 */
export class RedisScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(client: RedisClientType, options: { keys?: string[]; arguments?: string[] }): Promise<unknown> {
    try {
      return await client.evalSha(this.sha, options);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return client.eval(this.source, options);
    }
  }
}
