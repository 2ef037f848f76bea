import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Marks the offer notes stored before chat_message.offer_note existed. A stored message is a note when a move
 * in the offer's log (job_offer_event) accounts for it: in that offer's chat, by the move's actor, with that
 * move's note (type and text, as the marketplace posted them until now), never edited, and stored within ten
 * minutes after the move (a note is posted right after the move commits). A message with a note's text that
 * no move accounts for (one a user typed or edited in) stays a plain message. The note texts are this
 * migration's own copy: later changes to the notes must not change what it did.
 */
export class ChatMessageOfferNoteBackfill1764500100000 implements MigrationInterface {
  name = 'ChatMessageOfferNoteBackfill1764500100000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      WITH note(call, from_status, type, text) AS (VALUES
        ('update', 1, 1, 'JOB_OFFER.MESSAGE.PROPOSAL'),
        ('update', 5, 1, 'JOB_OFFER.MESSAGE.REVISED'),
        ('final', NULL, 2, 'JOB_OFFER.MESSAGE.FINAL_OFFER'),
        ('choose', NULL, 3, 'JOB_OFFER.MESSAGE.APPROVED'),
        ('reapprove', NULL, 1, 'JOB_OFFER.MESSAGE.AGREED'),
        ('finalizeRequest', NULL, 1, 'JOB_OFFER.MESSAGE.FINALIZE_REQUESTED'),
        ('approveFinalizeRequest', NULL, 1, 'JOB_OFFER.MESSAGE.PAYMENT_REQUESTED'),
        ('pay', NULL, 1, 'JOB_OFFER.MESSAGE.PAID'),
        ('withdraw', NULL, 1, 'JOB_OFFER.MESSAGE.WITHDRAWN'),
        ('reject', NULL, 1, 'JOB_OFFER.MESSAGE.REJECTED'),
        ('closeOthers', NULL, 1, 'JOB_OFFER.MESSAGE.CLOSED_OTHER_CHOSEN')
      )
      UPDATE chat_message m SET offer_note = true
      FROM job_offer_event e
      JOIN job_offer o ON o.id = e.offer_id
      JOIN note n ON n.call = e.call AND (n.from_status IS NULL OR n.from_status = e.from_status)
      WHERE m.group_id = o.group_id AND m.author_id = e.actor_id AND m.type = n.type AND m.text = n.text
        AND m.edited_at IS NULL AND m.deleted_at IS NULL
        AND m.created_at >= e.at AND m.created_at < e.at + interval '10 minutes'`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE chat_message SET offer_note = false WHERE offer_note`);
  }
}
