import { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1763769600000 implements MigrationInterface {
  name = 'InitialSchema1763769600000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "instance" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "code" varchar(32) NOT NULL,
        "name" varchar(100) NOT NULL,
        "hosts" text[] NOT NULL DEFAULT '{}',
        "is_default" boolean NOT NULL DEFAULT false,
        "color" varchar(6) NOT NULL DEFAULT '228be6',
        "accent" varchar(6) NOT NULL DEFAULT '7950f2',
        "logo_url" varchar(2048),
        "custom_css" text NOT NULL DEFAULT '',
        "owner_id" uuid,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_instance" PRIMARY KEY ("id"),
        CONSTRAINT "CHK_instance_color" CHECK ("color" ~ '^[0-9a-f]{6}$' AND "accent" ~ '^[0-9a-f]{6}$')
      )`);
    await q.query(`CREATE UNIQUE INDEX "UQ_instance_code" ON "instance" ("code")`);
    await q.query(`CREATE UNIQUE INDEX "UQ_instance_default" ON "instance" ("is_default") WHERE "is_default"`);
    await q.query(`CREATE INDEX "IDX_instance_hosts" ON "instance" USING gin ("hosts")`);

    await q.query(`
      CREATE TABLE "user" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "code" varchar(32) NOT NULL,
        "instance_id" uuid NOT NULL,
        "email" varchar(254) NOT NULL,
        "password_hash" varchar(255) NOT NULL,
        "name" varchar(100) NOT NULL,
        "surname" varchar(100) NOT NULL DEFAULT '',
        "type" smallint NOT NULL DEFAULT 1,
        "role" smallint NOT NULL DEFAULT 0,
        "country" varchar(2),
        "lang" varchar(3) NOT NULL DEFAULT 'eng',
        "timezone" varchar(64) NOT NULL DEFAULT 'UTC',
        "avatar_url" varchar(2048),
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_user" PRIMARY KEY ("id"),
        CONSTRAINT "FK_user_instance" FOREIGN KEY ("instance_id") REFERENCES "instance"("id") ON DELETE RESTRICT,
        CONSTRAINT "CHK_user_type" CHECK ("type" IN (1, 2)),
        CONSTRAINT "CHK_user_role" CHECK ("role" IN (0, 10, 50, 100))
      )`);
    await q.query(`CREATE UNIQUE INDEX "UQ_user_code" ON "user" ("code")`);
    await q.query(`CREATE UNIQUE INDEX "UQ_user_instance_email" ON "user" ("instance_id", "email")`);
    await q.query(`ALTER TABLE "instance" ADD CONSTRAINT "FK_instance_owner" FOREIGN KEY ("owner_id") REFERENCES "user"("id") ON DELETE SET NULL`);

    await q.query(`
      CREATE TABLE "refresh_token" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "user_id" uuid NOT NULL,
        "family_id" uuid NOT NULL,
        "token_hash" char(64) NOT NULL,
        "remember" boolean NOT NULL DEFAULT false,
        "expires_at" timestamptz NOT NULL,
        "used_at" timestamptz,
        "revoked_at" timestamptz,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_refresh_token" PRIMARY KEY ("id"),
        CONSTRAINT "FK_refresh_token_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE
      )`);
    await q.query(`CREATE UNIQUE INDEX "UQ_refresh_token_hash" ON "refresh_token" ("token_hash")`);
    await q.query(`CREATE INDEX "IDX_refresh_token_family" ON "refresh_token" ("family_id")`);
    await q.query(`CREATE INDEX "IDX_refresh_token_user" ON "refresh_token" ("user_id")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "refresh_token"`);
    await q.query(`ALTER TABLE "instance" DROP CONSTRAINT "FK_instance_owner"`);
    await q.query(`DROP TABLE "user"`);
    await q.query(`DROP TABLE "instance"`);
  }
}
