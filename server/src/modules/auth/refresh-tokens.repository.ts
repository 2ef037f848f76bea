import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { RefreshTokenEntity } from './refresh-token.entity';

export interface NewRefreshToken {
  userId: string;
  familyId: string;
  tokenHash: string;
  remember: boolean;
  expiresAt: Date;
}

/** The only code that touches refresh_token. Tokens are addressed by their SHA-256 hash. */
@Injectable()
export class RefreshTokensRepository {
  constructor(@InjectRepository(RefreshTokenEntity) private readonly tokens: Repository<RefreshTokenEntity>) {}

  async insert(row: NewRefreshToken): Promise<void> {
    await this.tokens.insert(row);
  }

  /**
   * Marks a live token used and adds its successor to the same family, in one statement. The UPDATE only
   * matches an unused row, so of two concurrent rotations of one token exactly one gets a row back.
   * The successor's lifetime starts now (sliding), by the family's remember flag.
   */
  async rotate(oldHash: string, newHash: string, ttlSeconds: { session: number; remember: number }): Promise<{ userId: string; remember: boolean } | null> {
    const rows: { user_id: string; remember: boolean }[] = await this.tokens.query(
      `WITH used AS (
         UPDATE refresh_token SET used_at = now()
         WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()
         RETURNING user_id, family_id, remember
       )
       INSERT INTO refresh_token (user_id, family_id, token_hash, remember, expires_at)
       SELECT user_id, family_id, $2, remember, now() + make_interval(secs => CASE WHEN remember THEN $4::int ELSE $3::int END)
       FROM used
       RETURNING user_id, remember`,
      [oldHash, newHash, ttlSeconds.session, ttlSeconds.remember],
    );
    return rows[0] ? { userId: rows[0].user_id, remember: rows[0].remember } : null;
  }

  /** If the token was already used, someone replays it: revoke its whole family. Answers whether it did. */
  async revokeFamilyIfUsed(hash: string): Promise<boolean> {
    const [, affected] = (await this.tokens.query(
      `UPDATE refresh_token SET revoked_at = now()
       WHERE family_id = (SELECT family_id FROM refresh_token WHERE token_hash = $1 AND used_at IS NOT NULL)
         AND revoked_at IS NULL`,
      [hash],
    )) as [unknown, number];
    return affected > 0;
  }

  /** Logout: every token of the family stops working. Answers the family when it was live until now. */
  async revokeFamily(hash: string): Promise<string | undefined> {
    const [rows] = (await this.tokens.query(
      `UPDATE refresh_token SET revoked_at = now()
       WHERE family_id = (SELECT family_id FROM refresh_token WHERE token_hash = $1) AND revoked_at IS NULL
       RETURNING family_id`,
      [hash],
    )) as [{ family_id: string }[], number];
    return rows[0]?.family_id;
  }

  /** Drops a user's rows that expired long enough ago that nobody can present them usefully. */
  async pruneExpired(userId: string): Promise<void> {
    await this.tokens.query(`DELETE FROM refresh_token WHERE user_id = $1 AND expires_at < now() - interval '1 day'`, [userId]);
  }
}
