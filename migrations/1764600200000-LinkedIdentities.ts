import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * linked_identity: the accounts at OpenID providers that sign a user in. A sign-in finds its user by the
 * provider's subject within the instance, never by the e-mail address.
 */
export class LinkedIdentities1764600200000 implements MigrationInterface {
  name = 'LinkedIdentities1764600200000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "linked_identity" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "user_id" uuid NOT NULL,
        "instance_id" uuid NOT NULL,
        "provider" varchar(40) NOT NULL,
        "subject" varchar(255) NOT NULL,
        "email" varchar(254),
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_linked_identity" PRIMARY KEY ("id"),
        CONSTRAINT "FK_linked_identity_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE,
        CONSTRAINT "UQ_linked_identity_subject" UNIQUE ("instance_id", "provider", "subject"),
        CONSTRAINT "UQ_linked_identity_user_provider" UNIQUE ("user_id", "provider")
      )`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "linked_identity"`);
  }
}
