import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `outbox.traceparent`: the W3C trace context of the request or socket event that wrote the row (NULL while
 * tracing is off), so the jobs the relay makes of it continue that trace in the worker.
 */
export class OutboxTraceparent1764810000000 implements MigrationInterface {
  name = 'OutboxTraceparent1764810000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "outbox" ADD "traceparent" text`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "outbox" DROP COLUMN "traceparent"`);
  }
}
