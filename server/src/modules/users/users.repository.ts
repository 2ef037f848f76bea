import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, In, QueryFailedError, Repository } from 'typeorm';
import { AuthUser } from '#shared/contracts/auth';
import { Role } from '#shared/contracts/roles';
import { UserEntity } from './user.entity';

export type NewUser = Pick<UserEntity, 'instanceId' | 'email' | 'passwordHash' | 'name' | 'surname' | 'type' | 'country' | 'lang' | 'timezone'>;
export type ProfileChanges = Partial<Pick<UserEntity, 'name' | 'surname' | 'type' | 'country' | 'lang' | 'timezone' | 'gravatar'>>;

const isEmailTaken = (err: unknown) => err instanceof QueryFailedError && (err.driverError as { constraint?: string }).constraint === 'UQ_user_instance_email';

/** LIKE pattern text that matches itself literally. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The only code that touches the user table. `instanceId: null` means every instance (global roles);
 * a string scopes the lookup to that instance.
 */
@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {}

  findByCode(code: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ code });
  }

  /** Only what authentication needs, for many users in one query: plain SQL, as it runs for every token check. */
  findAuthUsers(codes: string[]): Promise<AuthUser[]> {
    // A suspended user (a moderator's action on a report) is no one until the suspension ends.
    return this.users.query(
      `SELECT id, code, email, role, instance_id AS "instanceId" FROM "user"
       WHERE code = ANY($1::text[]) AND (suspended_until IS NULL OR suspended_until <= now())`,
      [codes],
    );
  }

  findByEmail(instanceId: string, email: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ instanceId, email: email.toLowerCase() });
  }

  /** The user with its instance (for the instance code on /api/me). */
  findWithInstance(id: string): Promise<UserEntity | null> {
    return this.users.findOne({ where: { id }, relations: { instance: true } });
  }

  findVisibleByCode(instanceId: string | null, code: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ code, ...(instanceId ? { instanceId } : {}) });
  }

  findVisibleByCodes(instanceId: string | null, codes: string[]): Promise<UserEntity[]> {
    if (codes.length === 0) return Promise.resolve([]);
    return this.users.findBy({ code: In(codes), ...(instanceId ? { instanceId } : {}) });
  }

  /**
   * Name, surname or "name surname" containing the text (case-insensitive), or an e-mail equal to the whole
   * text. Never a part of an e-mail: prefixes would let anyone spell out an address letter by letter.
   */
  search(instanceId: string | null, text: string, limit: number): Promise<UserEntity[]> {
    const escaped = escapeLike(text);
    const qb = this.users.createQueryBuilder('u');
    if (instanceId) qb.where('u.instanceId = :instanceId', { instanceId });
    return qb
      .andWhere(
        new Brackets((w) =>
          w
            .where(`u.name ILIKE :contains ESCAPE '\\'`)
            .orWhere(`u.surname ILIKE :contains ESCAPE '\\'`)
            .orWhere(`(u.name || ' ' || u.surname) ILIKE :contains ESCAPE '\\'`)
            .orWhere('u.email = :exact'),
        ),
      )
      .setParameters({ contains: `%${escaped}%`, exact: text.toLowerCase() })
      .orderBy(`CASE WHEN (u.name || ' ' || u.surname) ILIKE :start ESCAPE '\\' THEN 0 ELSE 1 END`)
      .setParameter('start', `${escaped}%`)
      .addOrderBy('u.name')
      .addOrderBy('u.surname')
      .addOrderBy('u.code')
      .limit(limit)
      .getMany();
  }

  /**
   * Inserts a user as an instance user, or, when `firstIsAdmin` and the instance has no users yet, as its
   * instance admin; an advisory lock per instance makes two concurrent first registrations agree on one
   * admin. Answers null when the e-mail is already taken in the instance.
   */
  async createAccount(fields: NewUser & { code: string }, firstIsAdmin: boolean): Promise<UserEntity | null> {
    try {
      return await this.users.manager.transaction(async (tx) => {
        let role = Role.InstanceUser;
        if (firstIsAdmin) {
          await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`user:first:${fields.instanceId}`]);
          if (!(await tx.exists(UserEntity, { where: { instanceId: fields.instanceId } }))) role = Role.InstanceAdmin;
        }
        return tx.save(tx.create(UserEntity, { ...fields, role }));
      });
    } catch (err) {
      if (isEmailTaken(err)) return null;
      throw err;
    }
  }

  /** Makes an instance user the admin of their instance; global roles and admins stay as they are. */
  async promoteToInstanceAdmin(id: string): Promise<void> {
    await this.users.update({ id, role: Role.InstanceUser }, { role: Role.InstanceAdmin });
  }

  findInInstance(instanceId: string, code: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ instanceId, code });
  }

  async update(id: string, changes: ProfileChanges): Promise<void> {
    if (Object.keys(changes).length > 0) await this.users.update({ id }, changes);
  }
}
