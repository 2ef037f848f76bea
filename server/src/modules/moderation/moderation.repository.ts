import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditAction } from './audit-log.entity';

export interface AuditRow {
  at: Date;
  action: AuditAction;
  actor_code: string | null;
  actor_name: string | null;
  group_code: string | null;
  message_code: string | null;
  details: Record<string, unknown>;
}

export interface BusyRoomRow {
  id: string;
  code: string;
  name: string | null;
  type: number;
  messages: number;
  last_message_at: Date;
  participant_codes: string[];
}

/** Audit log writes and reads, and the activity figures moderators look at. */
@Injectable()
export class ModerationRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async record(entry: { instanceId: string; actorId: string; action: AuditAction; groupId: string | null; messageCode?: string; details?: object }) {
    await this.db.query(`INSERT INTO audit_log (instance_id, actor_id, action, group_id, message_code, details) VALUES ($1, $2, $3, $4, $5, $6)`, [
      entry.instanceId,
      entry.actorId,
      entry.action,
      entry.groupId,
      entry.messageCode ?? null,
      entry.details ?? {},
    ]);
  }

  /** Newest first; `instanceId` null means every instance (global admins). */
  audit(instanceId: string | null, offset: number, limit: number): Promise<AuditRow[]> {
    return this.db.query(
      `SELECT a.at, a.action, u.code AS actor_code, u.name AS actor_name, g.code AS group_code, a.message_code, a.details
       FROM audit_log a LEFT JOIN "user" u ON u.id = a.actor_id LEFT JOIN chat_group g ON g.id = a.group_id
       WHERE ($1::uuid IS NULL OR a.instance_id = $1)
       ORDER BY a.at DESC, a.id DESC OFFSET $2 LIMIT $3`,
      [instanceId, offset, limit],
    );
  }

  /** Groups by messages in the last `minutes`; only groups active in that window are looked at. */
  busiestRooms(instanceId: string | null, minutes: number, limit: number): Promise<BusyRoomRow[]> {
    return this.db.query(
      `SELECT g.id, g.code, g.name, g.type, g.last_message_at, c.messages,
              ARRAY(SELECT u.code FROM chat_participant p JOIN "user" u ON u.id = p.user_id WHERE p.group_id = g.id) AS participant_codes
       FROM chat_group g
       CROSS JOIN LATERAL (
         SELECT count(*)::int AS messages FROM chat_message m
         WHERE m.group_id = g.id AND m.created_at > now() - make_interval(mins => $2)
       ) c
       WHERE g.last_message_at > now() - make_interval(mins => $2) AND ($1::uuid IS NULL OR g.instance_id = $1)
       ORDER BY c.messages DESC, g.last_message_at DESC LIMIT $3`,
      [instanceId, minutes, limit],
    );
  }
}
