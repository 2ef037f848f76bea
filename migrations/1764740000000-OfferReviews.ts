import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two-sided reviews of a closed deal: one per party and offer, about the other party, with one reply by the
 * reviewed party. A review is public once `published_at` is set (both wrote) or `window_ends_at` has passed;
 * `window_ends_at` is the offer's closing time plus the instance's window (`instance.review_window_days`, NULL:
 * the configured default).
 */
export class OfferReviews1764740000000 implements MigrationInterface {
  name = 'OfferReviews1764740000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "instance" ADD "review_window_days" smallint`);
    await q.query(
      `ALTER TABLE "instance" ADD CONSTRAINT "CHK_instance_review_window_days" CHECK ("review_window_days" IS NULL OR "review_window_days" BETWEEN 1 AND 90)`,
    );
    await q.query(`
      CREATE TABLE "offer_review" (
        "id" bigint GENERATED ALWAYS AS IDENTITY,
        "code" varchar(32) NOT NULL,
        "offer_id" bigint NOT NULL,
        "author_id" uuid NOT NULL,
        "subject_id" uuid NOT NULL,
        "author_role" varchar(8) NOT NULL,
        "rating" smallint NOT NULL,
        "text" varchar(2000) NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "window_ends_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "published_at" TIMESTAMP WITH TIME ZONE,
        "reply_text" varchar(2000),
        "replied_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_offer_review" PRIMARY KEY ("id"),
        CONSTRAINT "FK_offer_review_offer" FOREIGN KEY ("offer_id") REFERENCES "job_offer"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_offer_review_author" FOREIGN KEY ("author_id") REFERENCES "user"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_offer_review_subject" FOREIGN KEY ("subject_id") REFERENCES "user"("id") ON DELETE CASCADE,
        CONSTRAINT "CHK_offer_review_rating" CHECK ("rating" BETWEEN 1 AND 5),
        CONSTRAINT "CHK_offer_review_role" CHECK ("author_role" IN ('provider', 'customer')),
        CONSTRAINT "CHK_offer_review_reply" CHECK (("reply_text" IS NULL) = ("replied_at" IS NULL))
      )`);
    await q.query(`CREATE UNIQUE INDEX "UQ_offer_review_code" ON "offer_review" ("code")`);
    await q.query(`CREATE UNIQUE INDEX "UQ_offer_review_offer_author" ON "offer_review" ("offer_id", "author_id")`);
    await q.query(`CREATE INDEX "IDX_offer_review_subject" ON "offer_review" ("subject_id", "window_ends_at" DESC)`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "offer_review"`);
    await q.query(`ALTER TABLE "instance" DROP CONSTRAINT "CHK_instance_review_window_days"`);
    await q.query(`ALTER TABLE "instance" DROP COLUMN "review_window_days"`);
  }
}
