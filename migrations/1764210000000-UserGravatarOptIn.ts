import { MigrationInterface, QueryRunner } from 'typeorm';

export class UserGravatarOptIn1764210000000 implements MigrationInterface {
  name = 'UserGravatarOptIn1764210000000';

  public async up(q: QueryRunner): Promise<void> {
    // Gravatar publishes a stable hash of the e-mail and calls a third party: only for users who ask for it.
    await q.query(`ALTER TABLE "user" ADD "gravatar" boolean NOT NULL DEFAULT false`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "user" DROP COLUMN "gravatar"`);
  }
}
