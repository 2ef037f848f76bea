import { MigrationInterface, QueryRunner } from 'typeorm';

export class Marketplace1764028800000 implements MigrationInterface {
  name = 'Marketplace1764028800000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "job" (
        "id" bigint GENERATED ALWAYS AS IDENTITY,
        "code" varchar(32) NOT NULL,
        "instance_id" uuid NOT NULL,
        "customer_id" uuid NOT NULL,
        "deadline" timestamptz,
        "accepting_offers" boolean NOT NULL DEFAULT true,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_job" PRIMARY KEY ("id"),
        CONSTRAINT "FK_job_instance" FOREIGN KEY ("instance_id") REFERENCES "instance"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_job_customer" FOREIGN KEY ("customer_id") REFERENCES "user"("id") ON DELETE CASCADE
      )`);
    await q.query(`CREATE UNIQUE INDEX "UQ_job_code" ON "job" ("code")`);
    await q.query(`CREATE INDEX "IDX_job_instance_created" ON "job" ("instance_id", "created_at" DESC, "id" DESC)`);
    await q.query(`CREATE INDEX "IDX_job_customer" ON "job" ("customer_id", "created_at" DESC)`);

    await q.query(`
      CREATE TABLE "job_version" (
        "job_id" bigint NOT NULL,
        "lang" varchar(3) NOT NULL,
        "title" varchar(200) NOT NULL,
        "description" varchar(10000) NOT NULL,
        "is_default" boolean NOT NULL DEFAULT false,
        CONSTRAINT "PK_job_version" PRIMARY KEY ("job_id", "lang"),
        CONSTRAINT "FK_job_version_job" FOREIGN KEY ("job_id") REFERENCES "job"("id") ON DELETE CASCADE
      )`);
    await q.query(`CREATE UNIQUE INDEX "UQ_job_version_default" ON "job_version" ("job_id") WHERE "is_default"`);

    await q.query(`
      CREATE TABLE "job_role_user" (
        "job_id" bigint NOT NULL,
        "role" smallint NOT NULL,
        "user_id" uuid NOT NULL,
        "position" smallint NOT NULL DEFAULT 0,
        CONSTRAINT "PK_job_role_user" PRIMARY KEY ("job_id", "role", "user_id"),
        CONSTRAINT "FK_job_role_user_job" FOREIGN KEY ("job_id") REFERENCES "job"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_job_role_user_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE,
        CONSTRAINT "CHK_job_role_user_role" CHECK ("role" BETWEEN 1 AND 4)
      )`);

    await q.query(`
      CREATE TABLE "job_offer" (
        "id" bigint GENERATED ALWAYS AS IDENTITY,
        "code" varchar(32) NOT NULL,
        "job_id" bigint NOT NULL,
        "provider_id" uuid NOT NULL,
        "group_id" bigint,
        "status" smallint NOT NULL DEFAULT 1,
        "deadline" timestamptz,
        "price_amount" numeric(14,2),
        "price_currency" char(3),
        "local_price_amount" numeric(14,2),
        "local_price_currency" char(3),
        "version" integer NOT NULL DEFAULT 1,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_job_offer" PRIMARY KEY ("id"),
        CONSTRAINT "FK_job_offer_job" FOREIGN KEY ("job_id") REFERENCES "job"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_job_offer_provider" FOREIGN KEY ("provider_id") REFERENCES "user"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_job_offer_group" FOREIGN KEY ("group_id") REFERENCES "chat_group"("id") ON DELETE SET NULL,
        CONSTRAINT "CHK_job_offer_status" CHECK ("status" IN (1, 5, 10, 50, 100, 130, 160, 200)),
        CONSTRAINT "CHK_job_offer_price" CHECK (("price_amount" IS NULL) = ("price_currency" IS NULL) AND "price_amount" > 0 IS NOT FALSE),
        CONSTRAINT "CHK_job_offer_local_price" CHECK (("local_price_amount" IS NULL) = ("local_price_currency" IS NULL) AND "local_price_amount" > 0 IS NOT FALSE)
      )`);
    await q.query(`CREATE UNIQUE INDEX "UQ_job_offer_code" ON "job_offer" ("code")`);
    await q.query(`CREATE INDEX "IDX_job_offer_job_status" ON "job_offer" ("job_id", "status")`);
    await q.query(`CREATE INDEX "IDX_job_offer_provider" ON "job_offer" ("provider_id", "updated_at" DESC)`);
    // One open offer per provider per job.
    await q.query(`CREATE UNIQUE INDEX "UQ_job_offer_open" ON "job_offer" ("job_id", "provider_id") WHERE "status" <> 200`);

    await q.query(`
      CREATE TABLE "job_offer_event" (
        "id" bigint GENERATED ALWAYS AS IDENTITY,
        "offer_id" bigint NOT NULL,
        "from_status" smallint,
        "to_status" smallint NOT NULL,
        "call" varchar(32) NOT NULL,
        "actor_id" uuid,
        "at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_job_offer_event" PRIMARY KEY ("id"),
        CONSTRAINT "FK_job_offer_event_offer" FOREIGN KEY ("offer_id") REFERENCES "job_offer"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_job_offer_event_actor" FOREIGN KEY ("actor_id") REFERENCES "user"("id") ON DELETE SET NULL
      )`);
    await q.query(`CREATE INDEX "IDX_job_offer_event_offer" ON "job_offer_event" ("offer_id", "id")`);

    await q.query(`
      CREATE TABLE "payment" (
        "id" bigint GENERATED ALWAYS AS IDENTITY,
        "code" varchar(32) NOT NULL,
        "offer_id" bigint NOT NULL,
        "payer_id" uuid,
        "amount" numeric(14,2) NOT NULL,
        "currency" char(3) NOT NULL,
        "status" varchar(16) NOT NULL,
        "provider" varchar(32) NOT NULL,
        "provider_reference" varchar(200),
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_payment" PRIMARY KEY ("id"),
        CONSTRAINT "FK_payment_offer" FOREIGN KEY ("offer_id") REFERENCES "job_offer"("id") ON DELETE RESTRICT,
        CONSTRAINT "FK_payment_payer" FOREIGN KEY ("payer_id") REFERENCES "user"("id") ON DELETE SET NULL,
        CONSTRAINT "CHK_payment_amount" CHECK ("amount" > 0),
        CONSTRAINT "CHK_payment_status" CHECK ("status" IN ('pending', 'succeeded', 'failed'))
      )`);
    await q.query(`CREATE UNIQUE INDEX "UQ_payment_code" ON "payment" ("code")`);
    // Whatever happens above, an offer is paid at most once.
    await q.query(`CREATE UNIQUE INDEX "UQ_payment_offer_succeeded" ON "payment" ("offer_id") WHERE "status" = 'succeeded'`);

    await q.query(`
      CREATE TABLE "idempotency_key" (
        "user_id" uuid NOT NULL,
        "key" varchar(100) NOT NULL,
        "fingerprint" varchar(64) NOT NULL,
        "status_code" smallint,
        "response" jsonb,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_idempotency_key" PRIMARY KEY ("user_id", "key"),
        CONSTRAINT "FK_idempotency_key_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX "IDX_idempotency_key_created" ON "idempotency_key" ("created_at")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "idempotency_key"`);
    await q.query(`DROP TABLE "payment"`);
    await q.query(`DROP TABLE "job_offer_event"`);
    await q.query(`DROP TABLE "job_offer"`);
    await q.query(`DROP TABLE "job_role_user"`);
    await q.query(`DROP TABLE "job_version"`);
    await q.query(`DROP TABLE "job"`);
  }
}
