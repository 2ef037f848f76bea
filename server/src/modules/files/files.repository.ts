import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ModeratorScope, moderatorScopeParam } from '../../common/moderator-scope';
import { FileEntity } from './file.entity';

/** The only code that touches the file table. */
@Injectable()
export class FilesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  save(file: Partial<FileEntity>): Promise<FileEntity> {
    const repo = this.db.getRepository(FileEntity);
    return repo.save(repo.create(file));
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
