import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who brought each participant into a chat (null: they started it, opened it themselves, or came with its
 * target), so one person can bring at most CHAT_PEOPLE_PER_GROUP people into one group, over any number of calls.
 * A nullable column without a default: no rewrite of the table.
 */
export class ParticipantAddedBy1764480000000 implements MigrationInterface {
  name = 'ParticipantAddedBy1764480000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "chat_participant" ADD "added_by" uuid`);
    await q.query(
      `ALTER TABLE "chat_participant" ADD CONSTRAINT "FK_chat_participant_added_by" FOREIGN KEY ("added_by") REFERENCES "user"("id") ON DELETE SET NULL NOT VALID`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "chat_participant" DROP CONSTRAINT "FK_chat_participant_added_by"`);
    await q.query(`ALTER TABLE "chat_participant" DROP COLUMN "added_by"`);
  }
}
