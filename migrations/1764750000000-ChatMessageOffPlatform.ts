import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * chat_message.off_platform marks a message that, in an offer's chat before the offer was Agreed, carried contact
 * details or asked for payment outside Parley (shared/safety/off-platform.ts): readers see a safety note and
 * moderators a flag, whatever the sender's client did. Set by the send and the edit, never by the client.
 */
export class ChatMessageOffPlatform1764750000000 implements MigrationInterface {
  name = 'ChatMessageOffPlatform1764750000000';

  public async up(q: QueryRunner): Promise<void> {
    // A constant default: no table rewrite.
    await q.query(`ALTER TABLE "chat_message" ADD "off_platform" boolean NOT NULL DEFAULT false`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "chat_message" DROP COLUMN "off_platform"`);
  }
}
