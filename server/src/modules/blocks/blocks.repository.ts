import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface BlockedRow {
  code: string;
  name: string;
  surname: string;
  created_at: Date;
}

/** Who blocked whom (user_block); a block is between two users of one instance. */
@Injectable()
export class BlocksRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The user of this instance with this code, if any. */
  async userInInstance(instanceId: string, code: string): Promise<{ id: string } | undefined> {
    const rows: { id: string }[] = await this.db.query(`SELECT id FROM "user" WHERE code = $1 AND instance_id = $2`, [code, instanceId]);
    return rows[0];
  }

  async block(blockerId: string, blockedId: string): Promise<void> {
    await this.db.query(`INSERT INTO user_block (blocker_id, blocked_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [blockerId, blockedId]);
  }

  async unblock(blockerId: string, blockedId: string): Promise<void> {
    await this.db.query(`DELETE FROM user_block WHERE blocker_id = $1 AND blocked_id = $2`, [blockerId, blockedId]);
  }

  list(blockerId: string): Promise<BlockedRow[]> {
    return this.db.query(
      `SELECT u.code, u.name, u.surname, b.created_at FROM user_block b JOIN "user" u ON u.id = b.blocked_id
       WHERE b.blocker_id = $1 ORDER BY b.created_at DESC`,
      [blockerId],
    );
  }

  /** Whether any of these users blocked that one. */
  async blockedByAny(blockerIds: string[], blockedId: string): Promise<boolean> {
    if (!blockerIds.length) return false;
    const rows: unknown[] = await this.db.query(`SELECT 1 FROM user_block WHERE blocker_id = ANY($1::uuid[]) AND blocked_id = $2 LIMIT 1`, [
      blockerIds,
      blockedId,
    ]);
    return rows.length > 0;
  }

  /** Whether any of these users who is not in the group yet blocked that one. */
  async blockedByAnyOutside(groupId: string, blockerIds: string[], blockedId: string): Promise<boolean> {
    if (!blockerIds.length) return false;
    const rows: unknown[] = await this.db.query(
      `SELECT 1 FROM user_block b WHERE b.blocker_id = ANY($1::uuid[]) AND b.blocked_id = $2
         AND NOT EXISTS (SELECT 1 FROM chat_participant p WHERE p.group_id = $3 AND p.user_id = b.blocker_id) LIMIT 1`,
      [blockerIds, blockedId, groupId],
    );
    return rows.length > 0;
  }
}
