import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { newCode } from '../../server/src/common/codes';
import { Role } from '#shared/contracts/roles';
import { PasswordService } from '../../server/src/modules/auth/password.service';
import { TokenService } from '../../server/src/modules/auth/token.service';
import { InstanceEntity } from '../../server/src/modules/instances/instance.entity';
import { InstancesRepository } from '../../server/src/modules/instances/instances.repository';
import { UserEntity } from '../../server/src/modules/users/user.entity';
import { TestApp } from '../utils/create-app';

export const DEFAULT_PASSWORD = 'correct horse battery staple';
/** One hash per test file, made the way the app makes them, so factory users log in at the app's cost. */
let passwordHash: Promise<string> | undefined;

export const uniqueEmail = (prefix = 'user') => `${prefix}.${randomBytes(5).toString('hex')}@example.test`;

/** A real instance row; give hosts to reach it through the Host header. */
export async function createInstance(t: TestApp, fields: Partial<InstanceEntity> = {}): Promise<InstanceEntity> {
  const repo = t.app.get(DataSource).getRepository(InstanceEntity);
  return repo.save(repo.create({ code: newCode(), name: `Instance ${randomBytes(3).toString('hex')}`, hosts: [], ...fields }));
}

export function defaultInstance(t: TestApp): Promise<InstanceEntity> {
  return t.app.get(InstancesRepository).findOrCreateDefault();
}

export interface TestUser {
  user: UserEntity;
  token: string;
  password: string;
}

/** A real user row (password DEFAULT_PASSWORD) with a signed access token. */
export async function createUser(t: TestApp, fields: Partial<UserEntity> & { role?: Role } = {}): Promise<TestUser> {
  passwordHash ??= t.app.get(PasswordService).hash(DEFAULT_PASSWORD);
  const instanceId = fields.instanceId ?? (await defaultInstance(t)).id;
  const repo = t.app.get(DataSource).getRepository(UserEntity);
  const suffix = randomBytes(3).toString('hex');
  const user = await repo.save(
    repo.create({
      code: newCode(),
      email: uniqueEmail(),
      passwordHash: await passwordHash,
      name: `Name${suffix}`,
      surname: `Surname${suffix}`,
      role: Role.InstanceUser,
      ...fields,
      instanceId,
    }),
  );
  const { token } = t.app.get(TokenService).sign(user);
  return { user, token, password: DEFAULT_PASSWORD };
}

/** A new chat between these users (the first one starts it), through the API; returns its code. */
export async function createGroup(t: TestApp, users: TestUser[]): Promise<string> {
  const res = await t
    .http()
    .put('/api/message/groups')
    .set('Authorization', `Bearer ${users[0].token}`)
    .send({ userList: users.slice(1).map((u) => u.user.code), createNewGroup: true })
    .expect(200);
  return res.body.group.code;
}
