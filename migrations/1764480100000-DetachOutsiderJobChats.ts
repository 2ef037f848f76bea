import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A job's chat is its customer's to make (docs/security.md, "Chat groups and presence"). Job chats that someone
 * else made before that rule become ordinary group chats: their people and messages stay, and the job's chat is
 * free for the customer to make with people of their choosing. Not undone: which chats were detached is not kept.
 */
export class DetachOutsiderJobChats1764480100000 implements MigrationInterface {
  name = 'DetachOutsiderJobChats1764480100000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE chat_group g SET type = 1, target_id = NULL, updated_at = now()
       FROM job j
       WHERE g.type = 3 AND j.code = g.target_id AND g.created_by IS DISTINCT FROM j.customer_id`,
    );
  }

  public async down(): Promise<void> {
    // Nothing to undo: the detached chats are ordinary chats now, as any other.
  }
}
