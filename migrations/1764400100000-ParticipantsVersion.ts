import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * chat_group.participants_version counts the changes to a group's participants, whatever makes them (joins,
 * leaves, a user's deletion cascading): a server that knows a group's participant codes at that version need
 * not read them again for every message it stores (ChatMessagesRepository, INSERT_MESSAGES_SQL).
 * Changes of read markers (most updates of chat_participant) don't fire the trigger.
 */
export class ParticipantsVersion1764400100000 implements MigrationInterface {
  name = 'ParticipantsVersion1764400100000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "chat_group" ADD "participants_version" bigint NOT NULL DEFAULT 0`);
    await q.query(`
      CREATE FUNCTION chat_participants_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN
          UPDATE chat_group SET participants_version = participants_version + 1 WHERE id = OLD.group_id;
        END IF;
        IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.group_id <> OLD.group_id) THEN
          UPDATE chat_group SET participants_version = participants_version + 1 WHERE id = NEW.group_id;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER "TR_chat_participants_changed" AFTER INSERT OR DELETE OR UPDATE OF group_id, user_id ON "chat_participant"
      FOR EACH ROW EXECUTE FUNCTION chat_participants_changed()`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER "TR_chat_participants_changed" ON "chat_participant"`);
    await q.query(`DROP FUNCTION chat_participants_changed()`);
    await q.query(`ALTER TABLE "chat_group" DROP COLUMN "participants_version"`);
  }
}
