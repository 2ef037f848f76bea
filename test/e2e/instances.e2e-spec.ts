import { randomBytes } from 'node:crypto';
import { Role } from '#shared/contracts/roles';
import { InstanceEntity } from '../../server/src/modules/instances/instance.entity';
import { createInstance, createUser, defaultInstance, TestUser } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';

const host = () => `inst-${randomBytes(4).toString('hex')}.test`;
const INSTANCE_FIELDS = ['accent', 'code', 'color', 'customCss', 'hosts', 'isDefault', 'logoUrl', 'name', 'updatedAt'];

describe('Instance calls', () => {
  let t: TestApp;
  let a: InstanceEntity;
  let b: InstanceEntity;
  let aHost: string;
  let aUser: TestUser;
  let aAdmin: TestUser;
  let aGlobalUser: TestUser;
  let globalAdmin: TestUser;
  const bearer = (u: TestUser) => `Bearer ${u.token}`;

  beforeAll(async () => {
    t = await createTestApp();
    aHost = host();
    a = await createInstance(t, { hosts: [aHost], color: '112233', accent: '445566' });
    b = await createInstance(t, { hosts: [host()] });
    aUser = await createUser(t, { instanceId: a.id });
    aAdmin = await createUser(t, { instanceId: a.id, role: Role.InstanceAdmin });
    aGlobalUser = await createUser(t, { instanceId: a.id, role: Role.GlobalUser });
    const gaInstance = await createInstance(t);
    globalAdmin = await createUser(t, { instanceId: gaInstance.id, role: Role.GlobalAdmin });
  });
  afterAll(() => t.close());

  describe('GET /api/Instance/Current', () => {
    it('needs no login and answers the instance of the Host header, without internal ids', async () => {
      const res = await t.http().get('/api/Instance/Current').set('Host', `${aHost.toUpperCase()}:8080`).expect(200);
      expect(res.body).toEqual({ code: a.code, name: a.name, color: '112233', accent: '445566', logoUrl: null });
    });

    it('answers the default instance for an unknown or missing host, even with a bad token', async () => {
      const def = await defaultInstance(t);
      const res = await t.http().get('/api/instance/current').set('Host', 'nobody-claims-this.test').set('Authorization', 'Bearer x.y.z').expect(200);
      expect(res.body.code).toBe(def.code);
      expect(Object.keys(res.body).sort()).toEqual(['accent', 'code', 'color', 'logoUrl', 'name']);
    });
  });

  describe('GET /api/Instance/{id}', () => {
    it('needs a login', async () => {
      const res = await t.http().get(`/api/Instance/${a.code}`).expect(401);
      expect(res.body).toEqual({ code: 401, message: 'SHARED.ERROR.UNAUTHORIZED' });
    });

    it('shows members their own instance, with every public field and no internal id', async () => {
      const res = await t.http().get(`/api/Instance/${a.code}`).set('Authorization', bearer(aUser)).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(INSTANCE_FIELDS);
      expect(res.body).toMatchObject({ code: a.code, name: a.name, hosts: [aHost], isDefault: false, customCss: '' });
      expect(JSON.stringify(res.body)).not.toContain(a.id);
    });

    it('hides other instances from instance roles with 404, whatever the Host header', async () => {
      for (const u of [aUser, aAdmin]) {
        const res = await t.http().get(`/api/Instance/${b.code}`).set('Authorization', bearer(u)).set('Host', b.hosts[0]).expect(404);
        expect(res.body).toEqual({ code: 404, message: 'SHARED.ERROR.NOT_FOUND' });
      }
    });

    it('shows any instance to global roles', async () => {
      for (const u of [aGlobalUser, globalAdmin]) {
        const res = await t.http().get(`/api/instance/${b.code}`).set('Authorization', bearer(u)).expect(200);
        expect(res.body.code).toBe(b.code);
      }
    });

    it('answers 404 for unknown and malformed codes', async () => {
      for (const code of ['AAAAAAAAAAAAAAAA', '!!', 'x'.repeat(65), '%20']) {
        await t.http().get(`/api/Instance/${code}`).set('Authorization', bearer(globalAdmin)).expect(404);
      }
    });
  });

  describe('GET /api/Instance', () => {
    it('gives instance roles a one-item page with their own instance', async () => {
      const res = await t.http().get('/api/Instance').set('Authorization', bearer(aAdmin)).expect(200);
      expect(res.body).toEqual({ items: [expect.objectContaining({ code: a.code })], page: 1, pageSize: 20, total: 1 });
      const second = await t.http().get('/api/Instance?page=2').set('Authorization', bearer(aAdmin)).expect(200);
      expect(second.body).toEqual({ items: [], page: 2, pageSize: 20, total: 1 });
    });

    // Other test files add instances meanwhile, so a later page may repeat an item, but none is skipped.
    it('pages global roles through every instance', async () => {
      const first = await t.http().get('/api/Instance?pageSize=100').set('Authorization', bearer(aGlobalUser)).expect(200);
      const total: number = first.body.total;
      expect(total).toBeGreaterThanOrEqual(4);
      const codes: string[] = [];
      for (let page = 1; page <= Math.ceil(total / 2) + 1; page++) {
        const res = await t.http().get(`/api/Instance?page=${page}&pageSize=2`).set('Authorization', bearer(globalAdmin)).expect(200);
        expect(res.body.items.length).toBeLessThanOrEqual(2);
        codes.push(...res.body.items.map((i: { code: string }) => i.code));
      }
      expect(codes).toEqual(expect.arrayContaining([a.code, b.code]));
    });

    it.each([
      ['pageSize=101', 'VALIDATION.PAGE_SIZE.MATCHES'],
      ['pageSize=0', 'VALIDATION.PAGE_SIZE.MATCHES'],
      ['page=0', 'VALIDATION.PAGE.MATCHES'],
      ['page=abc', 'VALIDATION.PAGE.MATCHES'],
      ['page=1&page=2', 'VALIDATION.PAGE.MATCHES'],
      ['sort=name', 'VALIDATION.SORT.UNKNOWN_FIELD'],
    ])('rejects ?%s with 422', async (query, rule) => {
      const res = await t.http().get(`/api/Instance?${query}`).set('Authorization', bearer(globalAdmin)).expect(422);
      expect(res.body).toEqual({ code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: [rule] } });
    });

    it('needs a login', async () => {
      await t.http().get('/api/Instance').expect(401);
    });
  });

  describe('GET /api/Instance/Owned', () => {
    it('lists instances the caller owns, plus their own instance for an instance admin', async () => {
      const owner = await createUser(t, { instanceId: a.id, role: Role.GlobalUser });
      const owned = await createInstance(t, { ownerId: owner.user.id, name: `Owned ${randomBytes(3).toString('hex')}` });
      const res = await t.http().get('/api/Instance/Owned').set('Authorization', bearer(owner)).expect(200);
      expect(res.body.map((i: { code: string }) => i.code)).toEqual([owned.code]);

      const admins = await t.http().get('/api/instance/owned').set('Authorization', bearer(aAdmin)).expect(200);
      expect(admins.body.map((i: { code: string }) => i.code)).toEqual([a.code]);

      const plain = await t.http().get('/api/Instance/Owned').set('Authorization', bearer(aUser)).expect(200);
      expect(plain.body).toEqual([]);
    });

    it('needs a login', async () => {
      await t.http().get('/api/Instance/Owned').expect(401);
    });
  });
});
