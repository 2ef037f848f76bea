import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * user_file_usage holds the bytes and the number of files each user has uploaded, for the per-user storage
 * quota (FILE_QUOTA_BYTES). A trigger on "file" keeps it, whatever inserts or removes a file row (an upload,
 * DELETE /api/File/{code}, a group's deletion cascading), so the count cannot drift from the files.
 */
export class FileStorageUsage1764520000000 implements MigrationInterface {
  name = 'FileStorageUsage1764520000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "user_file_usage" (
        "user_id" uuid NOT NULL,
        "bytes" bigint NOT NULL DEFAULT 0,
        "files" integer NOT NULL DEFAULT 0,
        CONSTRAINT "PK_user_file_usage" PRIMARY KEY ("user_id"),
        CONSTRAINT "FK_user_file_usage_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE,
        CONSTRAINT "CHK_user_file_usage_not_negative" CHECK ("bytes" >= 0 AND "files" >= 0)
      )`);
    // Subtracting never inserts: when a user is deleted, their usage row may go before their files' owner_id
    // is set to NULL, and the update then finds no row, as it should.
    await q.query(`
      CREATE FUNCTION file_usage_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' AND OLD.owner_id IS NOT NULL THEN
          UPDATE user_file_usage SET bytes = bytes - OLD.size, files = files - 1 WHERE user_id = OLD.owner_id;
        END IF;
        IF TG_OP <> 'DELETE' AND NEW.owner_id IS NOT NULL THEN
          INSERT INTO user_file_usage (user_id, bytes, files) VALUES (NEW.owner_id, NEW.size, 1)
          ON CONFLICT (user_id) DO UPDATE SET bytes = user_file_usage.bytes + EXCLUDED.bytes, files = user_file_usage.files + 1;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER "TR_file_usage_changed" AFTER INSERT OR DELETE OR UPDATE OF owner_id, size ON "file"
      FOR EACH ROW EXECUTE FUNCTION file_usage_changed()`);
    await q.query(`CREATE INDEX "IDX_file_owner" ON "file" ("owner_id")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_file_owner"`);
    await q.query(`DROP TRIGGER "TR_file_usage_changed" ON "file"`);
    await q.query(`DROP FUNCTION file_usage_changed()`);
    await q.query(`DROP TABLE "user_file_usage"`);
  }
}
