import { MigrationInterface, QueryRunner } from 'typeorm';

export class ChatCore1763856000000 implements MigrationInterface {
  name = 'ChatCore1763856000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "chat_group" (
        "id" bigint GENERATED ALWAYS AS IDENTITY,
        "code" varchar(32) NOT NULL,
        "instance_id" uuid NOT NULL,
        "type" smallint NOT NULL,
        "name" varchar(200),
        "subtitle" varchar(300),
        "target_id" varchar(64),
        "direct_key" varchar(80),
        "last_seq" bigint NOT NULL DEFAULT 0,
        "last_message_at" timestamptz,
        "created_by" uuid,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_chat_group" PRIMARY KEY ("id"),
        CONSTRAINT "FK_chat_group_instance" FOREIGN KEY ("instance_id") REFERENCES "instance"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_chat_group_creator" FOREIGN KEY ("created_by") REFERENCES "user"("id") ON DELETE SET NULL,
        CONSTRAINT "CHK_chat_group_type" CHECK ("type" BETWEEN 0 AND 5)
      )`);
    await q.query(`CREATE UNIQUE INDEX "UQ_chat_group_code" ON "chat_group" ("code")`);
    await q.query(`CREATE UNIQUE INDEX "UQ_chat_group_target" ON "chat_group" ("instance_id", "type", "target_id") WHERE "target_id" IS NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX "UQ_chat_group_direct" ON "chat_group" ("instance_id", "direct_key") WHERE "direct_key" IS NOT NULL`);

    await q.query(`
      CREATE TABLE "chat_participant" (
        "group_id" bigint NOT NULL,
        "user_id" uuid NOT NULL,
        "role" smallint NOT NULL DEFAULT 0,
        "read_seq" bigint NOT NULL DEFAULT 0,
        "joined_at" timestamptz NOT NULL DEFAULT now(),
        "muted" boolean NOT NULL DEFAULT false,
        CONSTRAINT "PK_chat_participant" PRIMARY KEY ("group_id", "user_id"),
        CONSTRAINT "FK_chat_participant_group" FOREIGN KEY ("group_id") REFERENCES "chat_group"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_chat_participant_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX "IDX_chat_participant_user" ON "chat_participant" ("user_id") INCLUDE ("read_seq")`);

    await q.query(`
      CREATE TABLE "chat_message" (
        "id" bigint GENERATED ALWAYS AS IDENTITY,
        "code" varchar(32) NOT NULL,
        "group_id" bigint NOT NULL,
        "seq" bigint NOT NULL,
        "author_id" uuid,
        "type" smallint NOT NULL DEFAULT 1,
        "text" varchar(10000) NOT NULL DEFAULT '',
        "lang" varchar(3),
        "translation" text,
        "client_key" varchar(65),
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "deleted_at" timestamptz,
        "deleted_by" uuid,
        CONSTRAINT "PK_chat_message" PRIMARY KEY ("id"),
        CONSTRAINT "FK_chat_message_group" FOREIGN KEY ("group_id") REFERENCES "chat_group"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_chat_message_author" FOREIGN KEY ("author_id") REFERENCES "user"("id") ON DELETE SET NULL,
        CONSTRAINT "CHK_chat_message_type" CHECK ("type" BETWEEN 0 AND 3)
      )`);
    await q.query(`CREATE UNIQUE INDEX "UQ_chat_message_code" ON "chat_message" ("code")`);
    // A page of a group is one range scan of this index; unread counts are index-only scans of its live part.
    await q.query(`CREATE UNIQUE INDEX "UQ_chat_message_group_seq" ON "chat_message" ("group_id", "seq")`);
    await q.query(`CREATE INDEX "IDX_chat_message_live" ON "chat_message" ("group_id", "seq") INCLUDE ("author_id") WHERE "deleted_at" IS NULL`);
    await q.query(`CREATE INDEX "IDX_chat_message_group_created" ON "chat_message" ("group_id", "created_at", "seq")`);
    await q.query(`CREATE UNIQUE INDEX "UQ_chat_message_client_key" ON "chat_message" ("group_id", "author_id", "client_key") WHERE "client_key" IS NOT NULL`);

    await q.query(`
      CREATE TABLE "file" (
        "id" bigint GENERATED ALWAYS AS IDENTITY,
        "code" varchar(32) NOT NULL,
        "secure_code" varchar(64) NOT NULL,
        "instance_id" uuid NOT NULL,
        "owner_id" uuid,
        "context" smallint NOT NULL,
        "group_id" bigint,
        "name" varchar(255) NOT NULL,
        "size" bigint NOT NULL,
        "mime" varchar(100) NOT NULL,
        "kind" varchar(16) NOT NULL,
        "storage_key" varchar(255) NOT NULL,
        "has_thumbnail" boolean NOT NULL DEFAULT false,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_file" PRIMARY KEY ("id"),
        CONSTRAINT "FK_file_instance" FOREIGN KEY ("instance_id") REFERENCES "instance"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_file_owner" FOREIGN KEY ("owner_id") REFERENCES "user"("id") ON DELETE SET NULL,
        CONSTRAINT "FK_file_group" FOREIGN KEY ("group_id") REFERENCES "chat_group"("id") ON DELETE CASCADE
      )`);
    await q.query(`CREATE UNIQUE INDEX "UQ_file_code" ON "file" ("code")`);
    await q.query(`CREATE INDEX "IDX_file_group" ON "file" ("group_id")`);

    await q.query(`
      CREATE TABLE "chat_message_file" (
        "message_id" bigint NOT NULL,
        "file_id" bigint NOT NULL,
        "position" smallint NOT NULL DEFAULT 0,
        CONSTRAINT "PK_chat_message_file" PRIMARY KEY ("message_id", "file_id"),
        CONSTRAINT "FK_chat_message_file_message" FOREIGN KEY ("message_id") REFERENCES "chat_message"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_chat_message_file_file" FOREIGN KEY ("file_id") REFERENCES "file"("id") ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX "IDX_chat_message_file_file" ON "chat_message_file" ("file_id")`);

    await q.query(`
      CREATE TABLE "outbox" (
        "id" bigint GENERATED ALWAYS AS IDENTITY,
        "topic" varchar(64) NOT NULL,
        "payload" jsonb NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "dispatched_at" timestamptz,
        "attempts" integer NOT NULL DEFAULT 0,
        CONSTRAINT "PK_outbox" PRIMARY KEY ("id")
      )`);
    await q.query(`CREATE INDEX "IDX_outbox_pending" ON "outbox" ("id") WHERE "dispatched_at" IS NULL`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "outbox"`);
    await q.query(`DROP TABLE "chat_message_file"`);
    await q.query(`DROP TABLE "file"`);
    await q.query(`DROP TABLE "chat_message"`);
    await q.query(`DROP TABLE "chat_participant"`);
    await q.query(`DROP TABLE "chat_group"`);
  }
}
