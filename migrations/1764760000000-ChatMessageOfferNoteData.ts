import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * chat_message.offer_note_data: what an offer note's move did, written by the marketplace with the note (the
 * status it moved the offer to, and the terms a price, deadline or final-offer move set), so a card shows its
 * own event rather than the offer as it is now. NULL on every other message and on notes posted before.
 */
export class ChatMessageOfferNoteData1764760000000 implements MigrationInterface {
  name = 'ChatMessageOfferNoteData1764760000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "chat_message" ADD "offer_note_data" jsonb`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "chat_message" DROP COLUMN "offer_note_data"`);
  }
}
