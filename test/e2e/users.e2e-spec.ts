import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Role } from '#shared/contracts/roles';
import { UserEntity } from '../../server/src/modules/users/user.entity';
import { createInstance, createUser, TestUser } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';

jest.setTimeout(60_000);

const PUBLIC_FIELDS = ['avatar', 'away', 'code', 'country', 'jobIds', 'lang', 'name', 'surname', 'timezone', 'type'];
const word = () => `Zq${randomBytes(4).toString('hex')}`;

describe('users: search, list, profiles, me', () => {
  let t: TestApp;
  let me: TestUser, mate: TestUser, foreign: TestUser, globalUser: TestUser;
  /** A tag shared by the names of this file's users, so searches see only them. */
  const tag = word();
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });
  const codes = (body: { code: string }[]) => body.map((u) => u.code).sort();

  beforeAll(async () => {
    t = await createTestApp();
    const other = await createInstance(t);
    [me, mate, foreign, globalUser] = await Promise.all([
      createUser(t, { name: `Ada${tag}`, surname: 'Lovelace', email: `ada.${tag.toLowerCase()}@example.test` }),
      createUser(t, { name: 'Grace', surname: `Hopper${tag}`, email: `grace.${tag.toLowerCase()}@example.test`, avatarUrl: 'https://cdn.test/g.png' }),
      createUser(t, { name: `Alan${tag}`, surname: 'Turing', instanceId: other.id, email: `alan.${tag.toLowerCase()}@example.test` }),
      createUser(t, { role: Role.GlobalUser }),
    ]);
  });
  afterAll(() => t.close());

  describe('POST /api/user/search', () => {
    const search = (u: TestUser, query: unknown) => t.http().post('/api/user/search').set(as(u)).send({ query });

    it('matches name, surname and "name surname" anywhere, case-insensitively, within the instance', async () => {
      expect(codes((await search(me, tag.toUpperCase()).expect(200)).body)).toEqual(codes([me.user, mate.user]));
      expect(codes((await search(me, `  ${tag.toLowerCase()}  `)).body)).toEqual(codes([me.user, mate.user]));
      expect(codes((await search(me, `grace hopper${tag}`)).body)).toEqual([mate.user.code]);
      expect(codes((await search(me, `${tag} lovelace`)).body)).toEqual([me.user.code]);
    });

    it('matches a whole e-mail address (any case), never a part of one', async () => {
      expect(codes((await search(me, mate.user.email.toUpperCase())).body)).toEqual([mate.user.code]);
      expect((await search(me, `grace.${tag}`)).body).toEqual([]);
      expect((await search(me, `${tag}@example`)).body).toEqual([]);
      expect((await search(me, mate.user.email.slice(0, -1))).body).toEqual([]);
    });

    it('answers public profiles only', async () => {
      const [found] = (await search(me, mate.user.email)).body;
      expect(Object.keys(found).sort()).toEqual(PUBLIC_FIELDS);
      expect(found.avatar).toEqual({ code: 'custom', url: 'https://cdn.test/g.png' });
    });

    it('sees other instances only with a global role', async () => {
      expect((await search(me, `alan${tag}`)).body).toEqual([]);
      expect(codes((await search(globalUser, tag)).body)).toEqual(codes([me.user, mate.user, foreign.user]));
    });

    it('treats LIKE wildcards literally', async () => {
      const odd = word();
      const literal = await createUser(t, { name: `100%_${odd}` });
      await createUser(t, { name: `100ab${odd}` });
      expect(codes((await search(me, `100%_${odd}`)).body)).toEqual([literal.user.code]);
      expect((await search(me, '%%%%')).body).toEqual([]);
      expect((await search(me, '____')).body).toEqual([]);
      expect((await search(me, '\\\\\\\\')).body).toEqual([]);
    });

    it('answers at most 20, prefix matches first', async () => {
      const many = word();
      await Promise.all(Array.from({ length: 22 }, (_, i) => createUser(t, { name: `Name${i}`, surname: `x${many}` })));
      const first = await createUser(t, { name: `${many}First`, surname: 'Zed' });
      const res = await search(me, many).expect(200);
      expect(res.body).toHaveLength(20);
      expect(res.body[0].code).toBe(first.user.code);
    });

    it('wants a trimmed query longer than 3 characters and at most 100', async () => {
      const cases: [unknown, string][] = [
        ['abc', 'VALIDATION.QUERY.MIN_LENGTH'],
        ['  abc   ', 'VALIDATION.QUERY.MIN_LENGTH'],
        ['x'.repeat(101), 'VALIDATION.QUERY.MAX_LENGTH'],
        [1234, 'VALIDATION.QUERY.IS_STRING'],
        [['abcd'], 'VALIDATION.QUERY.IS_STRING'],
        [undefined, 'VALIDATION.QUERY.IS_STRING'],
      ];
      for (const [query, rule] of cases) {
        const res = await search(me, query);
        expect([res.status, res.body.data?.brokenRules]).toEqual([422, expect.arrayContaining([rule])]);
      }
      expect((await search(me, 'x'.repeat(100))).status).toBe(200);
      const extra = await t.http().post('/api/user/search').set(as(me)).send({ query: 'abcd', limit: 50 });
      expect(extra.body.data.brokenRules).toEqual(['VALIDATION.LIMIT.UNKNOWN_FIELD']);
      await t.http().post('/api/user/search').send({ query: 'abcd' }).expect(401);
    });
  });

  describe('POST /api/user/list', () => {
    const list = (u: TestUser, userIds: unknown) => t.http().post('/api/user/list').set(as(u)).send({ userIds });

    it('answers the visible users in the order asked, without duplicates; foreign and unknown codes are absent', async () => {
      const res = await list(me, [mate.user.code, foreign.user.code, 'unknownCode01', me.user.code, mate.user.code]).expect(200);
      expect(res.body.map((u: { code: string }) => u.code)).toEqual([mate.user.code, me.user.code]);
      expect(Object.keys(res.body[0]).sort()).toEqual(PUBLIC_FIELDS);
      expect((await list(me, [])).body).toEqual([]);
      expect(codes((await list(globalUser, [foreign.user.code, me.user.code])).body)).toEqual(codes([foreign.user, me.user]));
    });

    it('validates the list', async () => {
      const cases: [unknown, string][] = [
        [undefined, 'VALIDATION.USER_IDS.IS_ARRAY'],
        ['abcdef', 'VALIDATION.USER_IDS.IS_ARRAY'],
        [[42], 'VALIDATION.USER_IDS.IS_STRING'],
        [['no spaces please'], 'VALIDATION.USER_IDS.MATCHES'],
        [['x'.repeat(65)], 'VALIDATION.USER_IDS.MATCHES'],
        [Array.from({ length: 201 }, (_, i) => `code${i}x`), 'VALIDATION.USER_IDS.ARRAY_MAX_SIZE'],
      ];
      for (const [userIds, rule] of cases) {
        const res = await list(me, userIds);
        expect([res.status, res.body.data?.brokenRules]).toEqual([422, expect.arrayContaining([rule])]);
      }
      expect(
        (
          await list(
            me,
            Array.from({ length: 200 }, (_, i) => `code${i}x`),
          )
        ).status,
      ).toBe(200);
    });
  });

  describe('GET /api/user/{id}', () => {
    it('answers a public profile of the same instance', async () => {
      const res = await t.http().get(`/api/user/${mate.user.code}`).set(as(me)).expect(200);
      expect(res.body).toMatchObject({ code: mate.user.code, name: 'Grace', surname: `Hopper${tag}`, type: 1, jobIds: [], lang: 'eng' });
      expect(res.body.timezone).toEqual({ name: 'UTC', abbr: 'UTC', offset: 0 });
      expect(Object.keys(res.body).sort()).toEqual(PUBLIC_FIELDS);
    });

    it('answers 404 for another instance, an unknown code and a malformed one; global roles see everyone', async () => {
      for (const id of [foreign.user.code, 'unknownCode01', 'bad code!', 'x'.repeat(65)]) {
        const res = await t
          .http()
          .get(`/api/user/${encodeURIComponent(id)}`)
          .set(as(me));
        expect([res.status, res.body]).toEqual([404, { code: 404, message: 'SHARED.ERROR.NOT_FOUND' }]);
      }
      await t.http().get(`/api/user/${foreign.user.code}`).set(as(globalUser)).expect(200);
      await t.http().get(`/api/user/${mate.user.code}`).expect(401);
    });
  });

  describe('GET /api/User/Avatar/Gravatar', () => {
    it("answers the identicon of the caller's trimmed, lower-cased e-mail", async () => {
      const hash = createHash('sha256').update(me.user.email.trim().toLowerCase()).digest('hex');
      for (const path of ['/api/User/Avatar/Gravatar', '/api/user/avatar/gravatar']) {
        const res = await t.http().get(path).set(as(me)).expect(200);
        expect(res.body).toEqual({ code: 'gravatar', url: `https://www.gravatar.com/avatar/${hash}?d=identicon` });
      }
      await t.http().get('/api/User/Avatar/Gravatar').expect(401);
    });
  });

  describe('PATCH /api/me', () => {
    it('edits the own profile and answers it; absent fields stay', async () => {
      const u = await createUser(t, { country: 'DE' });
      const res = await t
        .http()
        .patch('/api/me')
        .set(as(u))
        .send({ name: ' Marie ', surname: 'Curie', type: 2, country: 'fr', lang: 'fra', timezone: 'europe/paris' })
        .expect(200);
      expect(res.body).toMatchObject({ code: u.user.code, name: 'Marie', surname: 'Curie', type: 2, country: 'FR', lang: 'fra', email: u.user.email });
      expect(res.body.timezone).toEqual({ name: 'Europe/Paris', abbr: expect.stringMatching(/^CES?T$/), offset: expect.any(Number) });
      expect([60, 120]).toContain(res.body.timezone.offset);

      const kept = await t.http().patch('/api/me').set(as(u)).send({ surname: 'Skłodowska-Curie' }).expect(200);
      expect(kept.body).toMatchObject({ name: 'Marie', surname: 'Skłodowska-Curie', country: 'FR' });
      const cleared = await t.http().patch('/api/me').set(as(u)).send({ country: null }).expect(200);
      expect(cleared.body.country).toBeNull();
      expect((await t.http().patch('/api/me').set(as(u)).send({}).expect(200)).body.name).toBe('Marie');
      expect((await t.http().get('/api/me').set(as(u))).body).toMatchObject({ name: 'Marie', country: null, lang: 'fra' });
    });

    it('refuses bad values and changes nothing', async () => {
      const u = await createUser(t);
      const cases: [object, string][] = [
        [{ name: '' }, 'VALIDATION.NAME.MIN_LENGTH'],
        [{ name: null }, 'VALIDATION.NAME.IS_STRING'],
        [{ name: 'n'.repeat(101) }, 'VALIDATION.NAME.MAX_LENGTH'],
        [{ surname: 5 }, 'VALIDATION.SURNAME.IS_STRING'],
        [{ type: 0 }, 'VALIDATION.TYPE.IS_IN'],
        [{ type: null }, 'VALIDATION.TYPE.IS_INT'],
        [{ country: 'ZZ' }, 'VALIDATION.COUNTRY.IS_ISO31661_ALPHA2'],
        [{ lang: 'deu' }, 'VALIDATION.LANG.IS_IN'],
        [{ lang: null }, 'VALIDATION.LANG.IS_IN'],
        [{ timezone: 'Europe/Nowhere' }, 'VALIDATION.TIMEZONE.IS_TIMEZONE'],
        [{ timezone: 'x'.repeat(65) }, 'VALIDATION.TIMEZONE.MAX_LENGTH'],
        [{ email: 'new@example.test' }, 'VALIDATION.EMAIL.UNKNOWN_FIELD'],
        [{ role: 100 }, 'VALIDATION.ROLE.UNKNOWN_FIELD'],
        [{ name: 'Ok', avatarUrl: 'https://x.test' }, 'VALIDATION.AVATAR_URL.UNKNOWN_FIELD'],
      ];
      for (const [body, rule] of cases) {
        const res = await t.http().patch('/api/me').set(as(u)).send(body);
        expect([res.status, res.body.data?.brokenRules]).toEqual([422, expect.arrayContaining([rule])]);
      }
      const malformed = await t.http().patch('/api/me').set(as(u)).set('Content-Type', 'application/json').send('{"name": ');
      expect(malformed.status).toBe(400);
      const row = await t.app.get(DataSource).getRepository(UserEntity).findOneByOrFail({ id: u.user.id });
      expect(row).toMatchObject({ name: u.user.name, surname: u.user.surname, type: 1, role: 0, lang: 'eng', timezone: 'UTC', email: u.user.email });
      await t.http().patch('/api/me').send({ name: 'x' }).expect(401);
    });
  });

  describe('GET /api/User/AuthProviders', () => {
    it('is public, routed before /api/user/{id}, and empty by default', async () => {
      expect((await t.http().get('/api/User/AuthProviders').expect(200)).body).toEqual([]);
      expect((await t.http().get('/api/user/authproviders').expect(200)).body).toEqual([]);
      await t.http().get('/api/User/AuthProviders/google/LoginUrl').expect(404);
    });
  });
});
