import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ModeratorScope, moderatorScopeParam } from '../../common/moderator-scope';
import { FileEntity } from './file.entity';

/** The only code that touches the file table. */
@Injectable()
export class FilesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Bytes of files the user has uploaded (kept by a trigger on "file", see the FileStorageUsage migration). */
  async bytesUsed(userId: string): Promise<number> {
    const [row] = await this.db.query(`SELECT bytes FROM user_file_usage WHERE user_id = $1`, [userId]);
    return Number(row?.bytes ?? 0);
  }

  /**
   * Stores the file's row if its owner's files stay within `quotaBytes` with it, else stores nothing and answers
   * null. The owner's usage row is locked for the check, so concurrent uploads of one user are counted in turn.
   */
  saveWithinQuota(file: Partial<FileEntity> & { ownerId: string; size: string }, quotaBytes: number): Promise<FileEntity | null> {
    return this.db.transaction(async (em) => {
      await em.query(`INSERT INTO user_file_usage (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING`, [file.ownerId]);
      const [usage] = await em.query(`SELECT bytes FROM user_file_usage WHERE user_id = $1 FOR UPDATE`, [file.ownerId]);
      if (Number(usage.bytes) + Number(file.size) > quotaBytes) return null;
      const repo = em.getRepository(FileEntity);
      return repo.save(repo.create(file));
    });
  }

  /** Records that the file's renditions are stored; false when the file is gone (deleted meanwhile). */
  async markRendered(id: string): Promise<boolean> {
    const [rows] = await this.db.query(`UPDATE file SET has_thumbnail = true WHERE id = $1 RETURNING id`, [id]);
    return rows.length > 0;
  }

  /** An upload that looked like an image but does not decode: a plain file from now on. */
  async markNotImage(id: string): Promise<void> {
    await this.db.query(`UPDATE file SET kind = 'unknown' WHERE id = $1`, [id]);
  }

  /** Deletes the file if `ownerId` uploaded it (its message links go with it); answers the deleted row or null. */
  async deleteOwned(code: string, ownerId: string): Promise<Pick<FileEntity, 'id' | 'storageKey'> | null> {
    const [rows] = await this.db.query(`DELETE FROM file WHERE code = $1 AND owner_id = $2 RETURNING id, storage_key`, [code, ownerId]);
    const row = rows[0] as { id: string; storage_key: string } | undefined;
    return row ? { id: String(row.id), storageKey: row.storage_key } : null;
  }

  findByCode(code: string): Promise<FileEntity | null> {
    return this.db.getRepository(FileEntity).findOneBy({ code });
  }

  /**
   * The files among `codes` that the user may read: own uploads, files shared in a group the user is in,
   * and, for moderators, files of groups in their scope.
   */
  readable(codes: string[], userId: string, scope: ModeratorScope): Promise<FileEntity[]> {
    return this.db
      .getRepository(FileEntity)
      .createQueryBuilder('f')
      .where('f.code = ANY(:codes)', { codes })
      .andWhere(
        `(f.owner_id = :userId
          OR EXISTS (SELECT 1 FROM chat_participant p WHERE p.group_id = f.group_id AND p.user_id = :userId)
          OR (f.group_id IS NOT NULL AND (:mod = 'all' OR f.instance_id::text = :mod)))`,
        { userId, mod: moderatorScopeParam(scope) },
      )
      .getMany();
  }
}
