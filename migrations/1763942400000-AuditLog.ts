import { MigrationInterface, QueryRunner } from 'typeorm';

export class AuditLog1763942400000 implements MigrationInterface {
  name = 'AuditLog1763942400000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "audit_log" (
        "id" bigint GENERATED ALWAYS AS IDENTITY,
        "at" timestamptz NOT NULL DEFAULT now(),
        "instance_id" uuid NOT NULL,
        "actor_id" uuid,
        "action" varchar(32) NOT NULL,
        "group_id" bigint,
        "message_code" varchar(32),
        "details" jsonb NOT NULL DEFAULT '{}',
        CONSTRAINT "PK_audit_log" PRIMARY KEY ("id"),
        CONSTRAINT "FK_audit_log_instance" FOREIGN KEY ("instance_id") REFERENCES "instance"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_audit_log_actor" FOREIGN KEY ("actor_id") REFERENCES "user"("id") ON DELETE SET NULL,
        CONSTRAINT "FK_audit_log_group" FOREIGN KEY ("group_id") REFERENCES "chat_group"("id") ON DELETE SET NULL
      )`);
    await q.query(`CREATE INDEX "IDX_audit_log_instance_at" ON "audit_log" ("instance_id", "at" DESC)`);
    // Append-only: only the cascades of the foreign keys above (trigger depth > 1) may touch a row.
    await q.query(`
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF pg_trigger_depth() > 1 THEN
          RETURN COALESCE(NEW, OLD);
        END IF;
        RAISE EXCEPTION 'audit_log is append-only';
      END $$`);
    await q.query(`CREATE TRIGGER "TRG_audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "audit_log"`);
    await q.query(`DROP FUNCTION audit_log_append_only()`);
  }
}
