import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** The one lookup presence needs from Postgres: which of these users a viewer may see. */
@Injectable()
export class PresenceRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Codes among `codes` of users in `instanceId`, or in any instance when it is null. */
  async existingCodes(instanceId: string | null, codes: string[]): Promise<Set<string>> {
    const rows: { code: string }[] = await this.db.query(`SELECT code FROM "user" WHERE code = ANY($1::varchar[]) AND ($2::uuid IS NULL OR instance_id = $2)`, [
      codes,
      instanceId,
    ]);
    return new Set(rows.map((r) => r.code));
  }
}
