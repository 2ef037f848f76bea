import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** The user lookups chat needs: codes to ids, scoped to one instance. */
@Injectable()
export class ChatUsersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  idsByCodes(instanceId: string, codes: string[]): Promise<string[]> {
    return this.db
      .query(`SELECT id FROM "user" WHERE instance_id = $1 AND code = ANY($2::varchar[])`, [instanceId, codes])
      .then((rows: { id: string }[]) => rows.map((r) => r.id));
  }
}
