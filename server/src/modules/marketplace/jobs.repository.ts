import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

export interface JobRow {
  id: string;
  code: string;
  instance_id: string;
  customer_id: string;
  customer_code: string;
  deadline: Date | null;
  accepting_offers: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface VersionRow {
  job_id: string;
  lang: string;
  title: string;
  description: string;
  is_default: boolean;
}

export interface NewVersion {
  lang: string;
  title: string;
  description: string;
  isDefault: boolean;
}

export interface RoleUserRow {
  role: number;
  code: string;
  name: string;
  surname: string;
}

export interface JobListFilter {
  customerId: string | null;
  titleContains: string | null;
}

/** The text as a literal inside a LIKE pattern (PostgreSQL's default escape character is the backslash). */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const JOB_COLUMNS = `j.id, j.code, j.instance_id, j.customer_id, cu.code AS customer_code, j.deadline, j.accepting_offers,
  j.created_at, j.updated_at`;

/** The only code that reads and writes jobs, their versions and role users. */
@Injectable()
export class JobsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  findByCode(code: string, manager: EntityManager = this.db.manager): Promise<JobRow | undefined> {
    return manager
      .query(`SELECT ${JOB_COLUMNS} FROM job j JOIN "user" cu ON cu.id = j.customer_id WHERE j.code = $1`, [code])
      .then((rows: JobRow[]) => rows[0]);
  }

  /** Whether the job takes offers, read under a share lock on its row that holds until the caller's transaction ends. */
  async lockAcceptingOffers(tx: EntityManager, jobId: string): Promise<boolean> {
    const [row]: { accepting_offers: boolean }[] = await tx.query(`SELECT accepting_offers FROM job WHERE id = $1 FOR SHARE`, [jobId]);
    return row?.accepting_offers === true;
  }

  /**
   * A page of an instance's jobs, newest first (optionally one customer's, optionally only those with a version
   * whose title contains a text, case-insensitive), one more row telling whether there are more.
   */
  list(instanceId: string, filter: JobListFilter, offset: number, limit: number): Promise<JobRow[]> {
    const params: unknown[] = [instanceId, filter.customerId, offset, limit];
    // Added only with a search: an "$n IS NULL OR EXISTS" form keeps the planner from a semi-join and reads
    // every matching title of every instance (scripts/bench/job-search.sql). The trigram index serves ILIKE.
    let search = '';
    if (filter.titleContains !== null) {
      params.push(`%${escapeLike(filter.titleContains)}%`);
      search = `AND EXISTS (SELECT 1 FROM job_version v WHERE v.job_id = j.id AND v.title ILIKE $5)`;
    }
    return this.db.query(
      `SELECT ${JOB_COLUMNS} FROM job j JOIN "user" cu ON cu.id = j.customer_id
       WHERE j.instance_id = $1 AND ($2::uuid IS NULL OR j.customer_id = $2) ${search}
       ORDER BY j.created_at DESC, j.id DESC OFFSET $3 LIMIT $4`,
      params,
    );
  }

  /** How many offers each job has (any status); jobs without offers are absent. */
  async offerCounts(jobIds: string[]): Promise<Map<string, number>> {
    if (jobIds.length === 0) return new Map();
    const rows: { job_id: string; count: number }[] = await this.db.query(
      `SELECT job_id, count(*)::int AS count FROM job_offer WHERE job_id = ANY($1::bigint[]) GROUP BY job_id`,
      [jobIds],
    );
    return new Map(rows.map((r) => [String(r.job_id), r.count]));
  }

  versions(jobIds: string[]): Promise<VersionRow[]> {
    if (jobIds.length === 0) return Promise.resolve([]);
    return this.db.query(
      `SELECT job_id, lang, title, description, is_default FROM job_version WHERE job_id = ANY($1::bigint[])
       ORDER BY job_id, is_default DESC, lang`,
      [jobIds],
    );
  }

  /** Creates a job with its versions in one transaction. */
  create(
    job: { code: string; instanceId: string; customerId: string; deadline: Date | null; acceptingOffers: boolean },
    versions: NewVersion[],
  ): Promise<string> {
    return this.db.transaction(async (tx) => {
      const [{ id }]: { id: string }[] = await tx.query(
        `INSERT INTO job (code, instance_id, customer_id, deadline, accepting_offers) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [job.code, job.instanceId, job.customerId, job.deadline, job.acceptingOffers],
      );
      await this.insertVersions(tx, id, versions);
      return id;
    });
  }

  /** Replaces the job's fields and all its versions in one transaction. */
  async update(jobId: string, fields: { deadline: Date | null; acceptingOffers: boolean }, versions: NewVersion[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(`UPDATE job SET deadline = $2, accepting_offers = $3, updated_at = now() WHERE id = $1`, [jobId, fields.deadline, fields.acceptingOffers]);
      await tx.query(`DELETE FROM job_version WHERE job_id = $1`, [jobId]);
      await this.insertVersions(tx, jobId, versions);
    });
  }

  private async insertVersions(tx: EntityManager, jobId: string, versions: NewVersion[]): Promise<void> {
    await tx.query(
      `INSERT INTO job_version (job_id, lang, title, description, is_default)
       SELECT $1, * FROM unnest($2::varchar[], $3::varchar[], $4::varchar[], $5::boolean[])`,
      [jobId, versions.map((v) => v.lang), versions.map((v) => v.title), versions.map((v) => v.description), versions.map((v) => v.isDefault)],
    );
  }

  roleUsers(jobId: string): Promise<RoleUserRow[]> {
    return this.db.query(
      `SELECT r.role, u.code, u.name, u.surname FROM job_role_user r JOIN "user" u ON u.id = r.user_id
       WHERE r.job_id = $1 ORDER BY r.role, r.position, u.code`,
      [jobId],
    );
  }

  /** Puts exactly these users (in this order) on the role. */
  async setRoleUsers(jobId: string, role: number, userIds: string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(`DELETE FROM job_role_user WHERE job_id = $1 AND role = $2`, [jobId, role]);
      if (userIds.length === 0) return;
      await tx.query(
        `INSERT INTO job_role_user (job_id, role, user_id, position)
         SELECT $1, $2, u, (n - 1)::smallint FROM unnest($3::uuid[]) WITH ORDINALITY AS t(u, n)`,
        [jobId, role, userIds],
      );
    });
  }

  /** User codes → ids within the instance, in the given order; null if any is unknown there. */
  async userIds(instanceId: string, codes: string[]): Promise<string[] | null> {
    if (codes.length === 0) return [];
    const rows: { id: string; code: string }[] = await this.db.query(`SELECT id, code FROM "user" WHERE instance_id = $1 AND code = ANY($2::varchar[])`, [
      instanceId,
      codes,
    ]);
    if (rows.length !== codes.length) return null;
    return codes.map((c) => rows.find((r) => r.code === c)!.id);
  }
}
