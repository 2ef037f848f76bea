import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What reaches a person: per chat, `muted` with an optional end (`muted_until`, a snooze; NULL: until turned back
 * on); per user, a switch per kind and channel and quiet hours for push (minutes of the day in the user's own
 * timezone). No row in notification_setting means every switch on and no quiet hours.
 */
export class NotificationSettings1764600000000 implements MigrationInterface {
  name = 'NotificationSettings1764600000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "chat_participant" ADD "muted_until" TIMESTAMP WITH TIME ZONE`);
    await q.query(`
      CREATE TABLE "notification_setting" (
        "user_id" uuid NOT NULL,
        "push_messages" boolean NOT NULL DEFAULT true,
        "push_offers" boolean NOT NULL DEFAULT true,
        "push_payments" boolean NOT NULL DEFAULT true,
        "email_messages" boolean NOT NULL DEFAULT true,
        "email_offers" boolean NOT NULL DEFAULT true,
        "email_payments" boolean NOT NULL DEFAULT true,
        "quiet_start" smallint,
        "quiet_end" smallint,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_notification_setting" PRIMARY KEY ("user_id"),
        CONSTRAINT "FK_notification_setting_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE,
        CONSTRAINT "CHK_notification_setting_quiet" CHECK (
          ("quiet_start" IS NULL) = ("quiet_end" IS NULL)
          AND ("quiet_start" IS NULL OR ("quiet_start" BETWEEN 0 AND 1439 AND "quiet_end" BETWEEN 0 AND 1439)))
      )`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "notification_setting"`);
    await q.query(`ALTER TABLE "chat_participant" DROP COLUMN "muted_until"`);
  }
}
