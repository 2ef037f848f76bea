import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Offer timers: the instance's durations (`instance.offer_timers`, only what the admin set; the defaults fill the
 * rest), and each timer step applied (`offer_timer_fired`, one row per offer, version and step), so a step is
 * applied at most once however often its job runs, and the id of the offer's pending timer job
 * (`job_offer.timer_job_id`), so the next move's timer replaces it.
 */
export class OfferTimers1764730000000 implements MigrationInterface {
  name = 'OfferTimers1764730000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "instance" ADD "offer_timers" jsonb NOT NULL DEFAULT '{}'`);
    await q.query(`ALTER TABLE "job_offer" ADD "timer_job_id" varchar(100)`);
    await q.query(`
      CREATE TABLE "offer_timer_fired" (
        "offer_id" bigint NOT NULL,
        "version" integer NOT NULL,
        "key" varchar(32) NOT NULL,
        "at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_offer_timer_fired" PRIMARY KEY ("offer_id", "version", "key"),
        CONSTRAINT "FK_offer_timer_fired_offer" FOREIGN KEY ("offer_id") REFERENCES "job_offer"("id") ON DELETE CASCADE
      )`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "offer_timer_fired"`);
    await q.query(`ALTER TABLE "job_offer" DROP COLUMN "timer_job_id"`);
    await q.query(`ALTER TABLE "instance" DROP COLUMN "offer_timers"`);
  }
}
