import { MigrationInterface, QueryRunner } from 'typeorm';

/** Counts the files uploaded before user_file_usage existed (its trigger counts the ones after). */
export class FileStorageUsageBackfill1764520100000 implements MigrationInterface {
  name = 'FileStorageUsageBackfill1764520100000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      INSERT INTO user_file_usage (user_id, bytes, files)
      SELECT owner_id, sum(size), count(*) FROM file WHERE owner_id IS NOT NULL GROUP BY owner_id
      ON CONFLICT (user_id) DO UPDATE SET bytes = EXCLUDED.bytes, files = EXCLUDED.files`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM user_file_usage`);
  }
}
