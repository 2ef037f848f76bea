import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_TTL_HOURS } from '#shared/contracts/offers';
import { unprocessable } from '../../common/errors';

export type Claim<T> = { replay: true; response: T } | { replay: false };

/**
 * Idempotency keys in Postgres, claimed inside the transaction of the change they guard: the key row and
 * the change commit together or not at all. A second request with the same key waits on the first one's
 * row (unique index) until it commits, then answers its stored result; if the first one failed (rolled
 * back), the second one runs. Keys live IDEMPOTENCY_KEY_TTL_HOURS, per user.
 */
@Injectable()
export class IdempotencyStore {
  private readonly logger = new Logger(IdempotencyStore.name);

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Checks the header's shape; undefined when none was sent. */
  static parse(header: string | string[] | undefined): string | undefined {
    if (header === undefined) return undefined;
    if (typeof header !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(header)) throw unprocessable(['VALIDATION.IDEMPOTENCY_KEY.INVALID']);
    return header;
  }

  static fingerprint(parts: unknown[]): string {
    return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
  }

  /** Takes the key for this request, or answers the stored result of the request that took it first. */
  async claim<T>(tx: EntityManager, userId: string, key: string, fingerprint: string): Promise<Claim<T>> {
    await tx.query(`DELETE FROM idempotency_key WHERE user_id = $1 AND key = $2 AND created_at < now() - make_interval(hours => $3)`, [
      userId,
      key,
      IDEMPOTENCY_KEY_TTL_HOURS,
    ]);
    const taken: unknown[] = await tx.query(`INSERT INTO idempotency_key (user_id, key, fingerprint) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING 1`, [
      userId,
      key,
      fingerprint,
    ]);
    if (taken.length) return { replay: false };
    const [stored]: { fingerprint: string; response: T | null }[] = await tx.query(
      `SELECT fingerprint, response FROM idempotency_key WHERE user_id = $1 AND key = $2`,
      [userId, key],
    );
    if (!stored || stored.fingerprint !== fingerprint || stored.response === null) throw unprocessable(['VALIDATION.IDEMPOTENCY_KEY.REUSED']);
    return { replay: true, response: stored.response };
  }

  /** Stores the result with the key, before the transaction commits. */
  async complete(tx: EntityManager, userId: string, key: string, response: unknown): Promise<void> {
    await tx.query(`UPDATE idempotency_key SET status_code = 200, response = $3::jsonb WHERE user_id = $1 AND key = $2`, [
      userId,
      key,
      JSON.stringify(response),
    ]);
  }

  /** Drops expired keys of every user, a slice at a time (called after successful keyed requests). */
  sweep(): void {
    this.db
      .query(
        `DELETE FROM idempotency_key WHERE ctid = ANY(ARRAY(
           SELECT ctid FROM idempotency_key WHERE created_at < now() - make_interval(hours => $1) LIMIT 500))`,
        [IDEMPOTENCY_KEY_TTL_HOURS],
      )
      .catch((err: unknown) => this.logger.warn({ err }, 'idempotency key sweep failed'));
  }
}
