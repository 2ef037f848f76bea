import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface SubscriptionRow {
  id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** Push subscriptions: one row per endpoint, moved only to a user who registers it with its own keys. */
@Injectable()
export class PushSubscriptionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Inserts the endpoint, renews its keys when it is the user's own, or moves it to this user when the keys
   * are the ones stored (the same browser, another user logged in). Answers null, changing nothing, when the
   * endpoint belongs to someone else under other keys: whoever learned only the URL cannot take it over.
   */
  async register(userId: string, endpoint: string, p256dh: string, auth: string): Promise<{ id: string; created: boolean } | null> {
    const [row]: { id: string; created: boolean }[] = await this.db.query(
      `INSERT INTO push_subscription (user_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4)
       ON CONFLICT (endpoint) DO UPDATE
         SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, last_used_at = now()
         WHERE push_subscription.user_id = EXCLUDED.user_id
            OR (push_subscription.p256dh = EXCLUDED.p256dh AND push_subscription.auth = EXCLUDED.auth)
       RETURNING id, (xmax = 0) AS created`,
      [userId, endpoint, p256dh, auth],
    );
    return row ?? null;
  }

  /** Keeps a user's `max` most recently used subscriptions (browsers a user no longer uses pile up otherwise). */
  async keepNewest(userId: string, max: number): Promise<number> {
    return this.deleted(`user_id = $1 AND id NOT IN (SELECT id FROM push_subscription WHERE user_id = $1 ORDER BY last_used_at DESC, id DESC LIMIT $2)`, [
      userId,
      max,
    ]);
  }

  /** Removes the endpoint if it belongs to the user; answers whether it did. */
  async unregister(userId: string, endpoint: string): Promise<boolean> {
    return (await this.deleted(`endpoint = $1 AND user_id = $2`, [endpoint, userId])) > 0;
  }

  forUsers(userIds: string[]): Promise<SubscriptionRow[]> {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.db.query(`SELECT id, user_id, endpoint, p256dh, auth FROM push_subscription WHERE user_id = ANY($1::uuid[]) ORDER BY id`, [userIds]);
  }

  /** Deletes a dead subscription, unless it was registered again meanwhile with other keys. */
  async remove(id: string, endpoint: string): Promise<boolean> {
    return (await this.deleted(`id = $1 AND endpoint = $2`, [id, endpoint])) > 0;
  }

  /** Deletes subscriptions neither registered again nor pushed to successfully for `days`; answers how many. */
  async prune(days: number): Promise<number> {
    return this.deleted(`last_used_at < now() - make_interval(days => $1::int)`, [days]);
  }

  /** Deletes the rows matching `where`; answers how many (TypeORM answers a bare DELETE as [rows, count]). */
  private async deleted(where: string, params: unknown[]): Promise<number> {
    const [row]: { n: number }[] = await this.db.query(
      `WITH d AS (DELETE FROM push_subscription WHERE ${where} RETURNING 1) SELECT count(*)::int AS n FROM d`,
      params,
    );
    return row.n;
  }

  count(userId: string): Promise<number> {
    return this.db.query(`SELECT count(*)::int AS n FROM push_subscription WHERE user_id = $1`, [userId]).then((rows: { n: number }[]) => rows[0].n);
  }
}
