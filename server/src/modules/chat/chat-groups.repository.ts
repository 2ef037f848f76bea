import { Injectable } from '@nestjs/common';
import { MUTED_NOW_SQL } from '#shared/notifications/notification-settings.repository';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ChatGroupType, ParticipantRole } from '#shared/contracts/chat';
import { ChatGroupEntity } from './chat-group.entity';
import { ChatParticipantEntity } from './chat-participant.entity';
import { UNREAD_SQL } from './unread/unread-counts.repository';

export interface ParticipantRow {
  group_id: string;
  user_id: string;
  code: string;
  name: string;
  surname: string;
  /** only for users who opted in to Gravatar (their avatar is its hash) */
  email: string | null;
  avatar_url: string | null;
  role: number;
  read_seq: string;
  joined_at: Date;
}

export interface GroupListRow {
  id: string;
  code: string;
  type: number;
  name: string | null;
  subtitle: string | null;
  target_id: string | null;
  last_seq: string;
  last_message_at: Date | null;
  created_at: Date;
  read_seq: string;
  muted: boolean;
  muted_until: Date | null;
  unread: string;
  participant_count: string;
  last_message_id: string | null;
}

/** Chats about a job: named after it in lists and headers. */
const JOB_GROUP_TYPES: number[] = [ChatGroupType.JobFaq, ChatGroupType.Job, ChatGroupType.JobOffer];

/** A participant to insert; `addedBy`: who brought them in (null: they started the chat, opened it or came with its target). */
export interface NewParticipant {
  userId: string;
  role: ParticipantRole;
  addedBy?: string | null;
}

/** What leaving answered: left (with the group's last seq then), not in it, or refused because too few would stay. */
export type LeaveResult = { left: true; lastSeq: number } | { left: false; reason: 'not-in' | 'too-few' };

/** The only code that reads and writes chat groups and their participants. */
@Injectable()
export class ChatGroupsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  findByCode(code: string): Promise<ChatGroupEntity | null> {
    return this.db.getRepository(ChatGroupEntity).findOneBy({ code });
  }

  /** id → code of these groups. */
  async codesByIds(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows: { id: string; code: string }[] = await this.db.query(`SELECT id::text AS id, code FROM chat_group WHERE id = ANY($1::bigint[])`, [ids]);
    return new Map(rows.map((r) => [r.id, r.code]));
  }

  findParticipant(groupId: string, userId: string): Promise<ChatParticipantEntity | null> {
    return this.db.getRepository(ChatParticipantEntity).findOneBy({ groupId, userId });
  }

  findByTarget(instanceId: string, type: ChatGroupType, targetId: string): Promise<ChatGroupEntity | null> {
    return this.db.getRepository(ChatGroupEntity).findOneBy({ instanceId, type, targetId });
  }

  findDirect(instanceId: string, directKey: string): Promise<ChatGroupEntity | null> {
    return this.db.getRepository(ChatGroupEntity).findOneBy({ instanceId, directKey });
  }

  /**
   * Creates a group with its participants in one transaction. A unique target or direct key that another
   * request created meanwhile is returned instead (created = false).
   */
  async create(
    group: Pick<ChatGroupEntity, 'code' | 'instanceId' | 'type' | 'name' | 'subtitle' | 'targetId' | 'directKey' | 'createdBy'>,
    participants: NewParticipant[],
  ): Promise<{ group: ChatGroupEntity; created: boolean }> {
    return this.db.transaction(async (tx) => {
      const inserted: ChatGroupEntity[] = await tx.query(
        `INSERT INTO chat_group (code, instance_id, type, name, subtitle, target_id, direct_key, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING id`,
        [group.code, group.instanceId, group.type, group.name, group.subtitle, group.targetId, group.directKey, group.createdBy],
      );
      if (inserted.length === 0) {
        const existing = group.directKey
          ? await tx.getRepository(ChatGroupEntity).findOneByOrFail({ instanceId: group.instanceId, directKey: group.directKey })
          : await tx.getRepository(ChatGroupEntity).findOneByOrFail({
              instanceId: group.instanceId,
              type: group.type,
              targetId: group.targetId!,
            });
        return { group: existing, created: false };
      }
      await this.insertParticipants(tx, inserted[0].id, participants);
      return { group: await tx.getRepository(ChatGroupEntity).findOneByOrFail({ id: inserted[0].id }), created: true };
    });
  }

  /** Adds participants who are not in yet (brought in by `addedBy`, if anyone); returns the ids actually added. */
  async addParticipants(groupId: string, userIds: string[], directKey?: string | null, addedBy: string | null = null): Promise<string[]> {
    return this.db.transaction(async (tx) => {
      const added = await this.insertParticipants(
        tx,
        groupId,
        userIds.map((userId) => ({ userId, role: ParticipantRole.Member, addedBy: userId === addedBy ? null : addedBy })),
        true,
      );
      // A direct chat that gains a third person is no longer the direct chat between the first two.
      if (added.length && directKey !== undefined) {
        await tx.query(`UPDATE chat_group SET direct_key = NULL, updated_at = now() WHERE id = $1`, [groupId]);
      }
      return added;
    });
  }

  private async insertParticipants(tx: EntityManager, groupId: string, participants: NewParticipant[], caughtUp = false): Promise<string[]> {
    if (participants.length === 0) return [];
    // Someone added to a running chat sees its history but starts with nothing unread.
    const rows: { user_id: string }[] = await tx.query(
      `INSERT INTO chat_participant (group_id, user_id, role, read_seq, added_by)
       SELECT $1, u, r, CASE WHEN $4 THEN (SELECT last_seq FROM chat_group WHERE id = $1) ELSE 0 END, a
       FROM unnest($2::uuid[], $3::smallint[], $5::uuid[]) AS t(u, r, a)
       ON CONFLICT DO NOTHING RETURNING user_id`,
      [groupId, participants.map((p) => p.userId), participants.map((p) => p.role), caughtUp, participants.map((p) => p.addedBy ?? null)],
    );
    return rows.map((r) => r.user_id);
  }

  participantCodes(groupId: string): Promise<string[]> {
    return this.db
      .query(`SELECT (SELECT u.code FROM "user" u WHERE u.id = p.user_id) AS code FROM chat_participant p WHERE p.group_id = $1`, [groupId])
      .then((rows: { code: string }[]) => rows.map((r) => r.code));
  }

  /** How many of the group's participants this user brought in. */
  countAddedBy(groupId: string, userId: string): Promise<number> {
    return this.db
      .query(`SELECT count(*)::int AS n FROM chat_participant WHERE group_id = $1 AND added_by = $2`, [groupId, userId])
      .then((rows: { n: number }[]) => rows[0].n);
  }

  /**
   * Takes the user out of the group, unless fewer than `keepAtLeast` would stay. The group's row is locked
   * meanwhile, so two people leaving at once can't both pass the count. A chat that loses someone is no longer
   * the direct chat between its first people.
   */
  leave(groupId: string, userId: string, keepAtLeast: number): Promise<LeaveResult> {
    return this.db.transaction(async (tx) => {
      const [group]: { last_seq: string }[] = await tx.query(`SELECT last_seq FROM chat_group WHERE id = $1 FOR UPDATE`, [groupId]);
      const [{ n }]: { n: number }[] = await tx.query(`SELECT count(*)::int AS n FROM chat_participant WHERE group_id = $1`, [groupId]);
      if (n - 1 < keepAtLeast) return { left: false, reason: 'too-few' };
      const gone: unknown[] = await tx.query(`DELETE FROM chat_participant WHERE group_id = $1 AND user_id = $2 RETURNING user_id`, [groupId, userId]);
      if (gone.length === 0) return { left: false, reason: 'not-in' };
      await tx.query(`UPDATE chat_group SET direct_key = NULL, updated_at = now() WHERE id = $1 AND direct_key IS NOT NULL`, [groupId]);
      return { left: true, lastSeq: Number(group.last_seq) };
    });
  }

  countParticipants(groupId: string): Promise<number> {
    return this.db.query(`SELECT count(*)::int AS n FROM chat_participant WHERE group_id = $1`, [groupId]).then((rows: { n: number }[]) => rows[0].n);
  }

  async rename(groupId: string, fields: { name?: string | null; subtitle?: string | null }): Promise<void> {
    await this.db.getRepository(ChatGroupEntity).update({ id: groupId }, fields);
  }

  /** Participants with their user fields; `limit` caps the list for group lists. */
  participants(groupIds: string[], limitPerGroup?: number): Promise<ParticipantRow[]> {
    if (groupIds.length === 0) return Promise.resolve([]);
    const limit = limitPerGroup ? `WHERE x.n <= ${Math.floor(limitPerGroup)}` : '';
    return this.db.query(
      `SELECT * FROM (
         SELECT p.group_id, p.user_id, u.code, u.name, u.surname, CASE WHEN u.gravatar THEN u.email END AS email, u.avatar_url, p.role, p.read_seq, p.joined_at,
                row_number() OVER (PARTITION BY p.group_id ORDER BY p.joined_at, u.code) AS n
         FROM chat_participant p JOIN "user" u ON u.id = p.user_id WHERE p.group_id = ANY($1::bigint[])
       ) x ${limit} ORDER BY x.group_id, x.n`,
      [groupIds],
    );
  }

  /**
   * The job each job FAQ, job and job-offer chat is about, by the group's target: its title in `lang`, else in the
   * reader's stored language (given `readerId`), else its default version's. Other chats and unknown targets are left out.
   */
  async jobTitles(groups: { type: number; targetId: string | null }[], lang: string | null, readerId?: string): Promise<Map<string, string>> {
    const about = groups.filter((g) => g.targetId && JOB_GROUP_TYPES.includes(g.type));
    if (about.length === 0) return new Map();
    const rows: { target: string; title: string }[] = await this.db.query(
      `SELECT t.target, v.title
       FROM unnest($1::varchar[], $2::smallint[]) AS t(target, type)
       JOIN job j ON j.id = CASE WHEN t.type = ${ChatGroupType.JobOffer}
                                 THEN (SELECT o.job_id FROM job_offer o WHERE o.code = t.target)
                                 ELSE (SELECT jc.id FROM job jc WHERE jc.code = t.target) END
       JOIN LATERAL (
         SELECT jv.title FROM job_version jv WHERE jv.job_id = j.id ORDER BY (jv.lang = COALESCE($3, (SELECT u.lang FROM "user" u WHERE u.id = $4))) IS TRUE DESC, jv.is_default DESC LIMIT 1
       ) v ON true`,
      [about.map((g) => g.targetId), about.map((g) => g.type), lang, readerId ?? null],
    );
    return new Map(rows.map((r) => [r.target, r.title]));
  }

  /** The user's groups, newest activity first, each with its unread count and last message id. */
  listForUser(userId: string, offset: number, limit: number, groupCode?: string): Promise<GroupListRow[]> {
    return this.db.query(
      `SELECT g.id, g.code, g.type, g.name, g.subtitle, g.target_id, g.last_seq, g.last_message_at, g.created_at,
              p.read_seq, ${MUTED_NOW_SQL} AS muted, CASE WHEN ${MUTED_NOW_SQL} THEN p.muted_until END AS muted_until,
              CASE WHEN g.last_seq > p.read_seq THEN ${UNREAD_SQL} ELSE 0 END AS unread,
              (SELECT count(*) FROM chat_participant c WHERE c.group_id = g.id) AS participant_count,
              (SELECT m.id FROM chat_message m WHERE m.group_id = g.id AND m.seq = g.last_seq) AS last_message_id
       FROM chat_participant p JOIN chat_group g ON g.id = p.group_id
       WHERE p.user_id = $1 ${groupCode ? 'AND g.code = $4' : ''}
       ORDER BY COALESCE(g.last_message_at, g.created_at) DESC, g.id DESC
       OFFSET $2 LIMIT $3`,
      groupCode ? [userId, offset, limit, groupCode] : [userId, offset, limit],
    );
  }
}
