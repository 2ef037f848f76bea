import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The jobs list's title search (`GET /api/job?q=`, ILIKE '%text%' over every version's title) reads a trigram
 * index instead of every title: over 100,000 jobs a search that matches nothing took ~390 ms without it and
 * ~1 ms with it (scripts/bench/job-search.sql). pg_trgm ships with PostgreSQL (contrib) and is a trusted
 * extension, so the database owner may create it.
 */
export class JobTitleSearch1764220000000 implements MigrationInterface {
  name = 'JobTitleSearch1764220000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await q.query(`CREATE INDEX "IDX_job_version_title_trgm" ON "job_version" USING gin ("title" gin_trgm_ops)`);
  }

  public async down(q: QueryRunner): Promise<void> {
    // The extension stays: something else may have come to use it.
    await q.query(`DROP INDEX "IDX_job_version_title_trgm"`);
  }
}
