import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * chat_message.offer_note marks the marketplace's offer notes by where they come from: only the code that posts
 * a note after an offer's move sets it (ChatMessagesService.postOfferNote), never a user's send or edit, so a
 * message is never taken for a note by its text. Rows stored before are marked by the next migration.
 */
export class ChatMessageOfferNote1764500000000 implements MigrationInterface {
  name = 'ChatMessageOfferNote1764500000000';

  public async up(q: QueryRunner): Promise<void> {
    // A constant default: no table rewrite.
    await q.query(`ALTER TABLE "chat_message" ADD "offer_note" boolean NOT NULL DEFAULT false`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "chat_message" DROP COLUMN "offer_note"`);
  }
}
