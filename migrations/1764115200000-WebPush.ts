import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebPush1764115200000 implements MigrationInterface {
  name = 'WebPush1764115200000';

  public async up(q: QueryRunner): Promise<void> {
    // One row per browser endpoint; registering it again moves it to the latest user.
    await q.query(`
      CREATE TABLE "push_subscription" (
        "id" bigint GENERATED ALWAYS AS IDENTITY,
        "user_id" uuid NOT NULL,
        "endpoint" varchar(2048) NOT NULL,
        "p256dh" varchar(128) NOT NULL,
        "auth" varchar(64) NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "last_used_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_push_subscription" PRIMARY KEY ("id"),
        CONSTRAINT "UQ_push_subscription_endpoint" UNIQUE ("endpoint"),
        CONSTRAINT "FK_push_subscription_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX "IDX_push_subscription_user" ON "push_subscription" ("user_id")`);
    await q.query(`CREATE INDEX "IDX_push_subscription_last_used" ON "push_subscription" ("last_used_at")`);
    // The lifecycle of each notification, append-only by convention: queued, skipped (reason), sent, retrying,
    // failed (status), subscription-removed. Answers "why did this user not get notified".
    await q.query(`
      CREATE TABLE "push_notification" (
        "id" bigint GENERATED ALWAYS AS IDENTITY,
        "at" timestamptz NOT NULL DEFAULT now(),
        "outbox_id" bigint NOT NULL,
        "user_id" uuid NOT NULL,
        "kind" varchar(32) NOT NULL,
        "status" varchar(32) NOT NULL,
        "reason" varchar(64),
        "http_status" smallint,
        "subscription_id" bigint,
        "push_service" varchar(300),
        "ref" varchar(64),
        CONSTRAINT "PK_push_notification" PRIMARY KEY ("id"),
        CONSTRAINT "FK_push_notification_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX "IDX_push_notification_user" ON "push_notification" ("user_id", "id" DESC)`);
    // One decision (queued or skipped) per recipient of an outbox row, one 'sent' per subscription: replays are no-ops.
    await q.query(`CREATE UNIQUE INDEX "UQ_push_notification_decision" ON "push_notification" ("outbox_id", "user_id") WHERE "subscription_id" IS NULL`);
    await q.query(`CREATE UNIQUE INDEX "UQ_push_notification_sent" ON "push_notification" ("outbox_id", "subscription_id") WHERE "status" = 'sent'`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "push_notification"`);
    await q.query(`DROP TABLE "push_subscription"`);
  }
}
