import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reports of messages and people to the instance's moderators, blocks between users, and suspensions.
 * - report: one per reporter and message (a message is reported once by each person); a person's report is open
 *   once at a time per reporter. `context` keeps the message and a few around it as they were when reported, so
 *   a later edit or delete does not change what the moderator judges.
 * - user_block: who blocked whom; nothing is ever told to the blocked user.
 * - user.suspended_until: a suspended user's tokens stop working until then (the authenticator's lookup).
 */
export class ReportsAndBlocks1764750100000 implements MigrationInterface {
  name = 'ReportsAndBlocks1764750100000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "report" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "code" varchar(32) NOT NULL,
        "instance_id" uuid NOT NULL,
        "reporter_id" uuid NOT NULL REFERENCES "user"("id") ON DELETE CASCADE,
        "reported_id" uuid NOT NULL REFERENCES "user"("id") ON DELETE CASCADE,
        "group_id" bigint REFERENCES "chat_group"("id") ON DELETE SET NULL,
        "message_id" bigint REFERENCES "chat_message"("id") ON DELETE SET NULL,
        "reason" varchar(32) NOT NULL,
        "note" varchar(1000),
        "context" jsonb NOT NULL DEFAULT '[]',
        "status" varchar(16) NOT NULL DEFAULT 'open',
        "action" varchar(16),
        "resolved_by" uuid REFERENCES "user"("id") ON DELETE SET NULL,
        "resolved_at" timestamptz,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX "UQ_report_code" ON "report" ("code")`);
    await q.query(`CREATE UNIQUE INDEX "UQ_report_message" ON "report" ("reporter_id", "message_id") WHERE "message_id" IS NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX "UQ_report_person_open" ON "report" ("reporter_id", "reported_id") WHERE "message_id" IS NULL AND "status" = 'open'`);
    await q.query(`CREATE INDEX "IDX_report_queue" ON "report" ("instance_id", "status", "created_at")`);
    await q.query(`CREATE INDEX "IDX_report_reporter" ON "report" ("reporter_id", "created_at" DESC)`);
    await q.query(`
      CREATE TABLE "user_block" (
        "blocker_id" uuid NOT NULL REFERENCES "user"("id") ON DELETE CASCADE,
        "blocked_id" uuid NOT NULL REFERENCES "user"("id") ON DELETE CASCADE,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("blocker_id", "blocked_id"),
        CONSTRAINT "CHK_user_block_not_self" CHECK ("blocker_id" <> "blocked_id")
      )`);
    await q.query(`CREATE INDEX "IDX_user_block_blocked" ON "user_block" ("blocked_id")`);
    await q.query(`ALTER TABLE "user" ADD "suspended_until" timestamptz`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "user" DROP COLUMN "suspended_until"`);
    await q.query(`DROP TABLE "user_block"`);
    await q.query(`DROP TABLE "report"`);
  }
}
