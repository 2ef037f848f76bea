import { randomBytes } from 'node:crypto';
import { Role } from '#shared/contracts/roles';
import { InstanceEntity } from '../../server/src/modules/instances/instance.entity';
import { createInstance, createUser, TestUser } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';

const host = () => `upd-${randomBytes(4).toString('hex')}.test`;
const rules = (...brokenRules: string[]) => ({ code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules } });

describe('POST /api/Instance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A fresh instance with one user of each role in it. */
  async function world() {
    const instance = await createInstance(t, { hosts: [host()] });
    const [user, admin, globalUser, globalAdmin] = await Promise.all(
      [Role.InstanceUser, Role.InstanceAdmin, Role.GlobalUser, Role.GlobalAdmin].map((role) => createUser(t, { instanceId: instance.id, role })),
    );
    return { instance, user, admin, globalUser, globalAdmin };
  }
  const post = (u: TestUser | undefined, body: unknown) => {
    const req = t.http().post('/api/Instance');
    if (u) req.set('Authorization', `Bearer ${u.token}`);
    return req.send(body as object);
  };
  const current = async (i: InstanceEntity) => (await t.http().get('/api/Instance/Current').set('Host', i.hosts[0]).expect(200)).body;

  it('lets an instance admin customise their instance; colours are stored lower-case without "#", seen at once', async () => {
    const { instance, admin } = await world();
    expect((await current(instance)).color).toBe('228be6'); // now cached by the resolver
    const res = await post(admin, { name: '  Acme jobs ', color: 'ABCDEF', accent: '0a0B0c', logoUrl: 'https://cdn.example.com/logo.png' }).expect(200);
    expect(res.body).toMatchObject({ code: instance.code, name: 'Acme jobs', color: 'abcdef', accent: '0a0b0c', logoUrl: 'https://cdn.example.com/logo.png' });
    expect(res.body.id).toBeUndefined();
    expect(await current(instance)).toEqual({
      code: instance.code,
      name: 'Acme jobs',
      color: 'abcdef',
      accent: '0a0b0c',
      logoUrl: 'https://cdn.example.com/logo.png',
    });
    const css = await t.http().get('/instance/styles.css').set('Host', instance.hosts[0]).expect(200);
    expect(css.text).toContain('--instance-color: #abcdef;');
  });

  it('changes only the fields given, and null removes the logo', async () => {
    const { instance, admin } = await world();
    await post(admin, { logoUrl: '/assets/logo.svg', customCss: '.a { color: red }' }).expect(200);
    const res = await post(admin, { logoUrl: null }).expect(200);
    expect(res.body).toMatchObject({ name: instance.name, color: '228be6', logoUrl: null, customCss: '.a { color: red }' });
  });

  it('lets a global user change only their own instance', async () => {
    const { instance, globalUser } = await world();
    const other = await createInstance(t, { hosts: [host()] });
    await post(globalUser, { color: '010203' }).expect(200);
    await post(globalUser, { code: instance.code, accent: '040506' }).expect(200);
    const res = await post(globalUser, { code: other.code, color: '999999' }).expect(403);
    expect(res.body).toEqual({ code: 403, message: 'SHARED.ERROR.FORBIDDEN' });
    expect((await current(other)).color).toBe('228be6');
    expect(await current(instance)).toMatchObject({ color: '010203', accent: '040506' });
  });

  it("refuses an instance admin another instance's code, existing or not, with 403", async () => {
    const { admin } = await world();
    const other = await createInstance(t, { hosts: [host()] });
    await post(admin, { code: other.code, name: 'Hijacked' }).expect(403);
    await post(admin, { code: 'NoSuchInstance123', name: 'Hijacked' }).expect(403);
    expect((await current(other)).name).toBe(other.name);
  });

  it('lets a global admin change any instance by code, and answers 404 for an unknown code', async () => {
    const { globalAdmin } = await world();
    const other = await createInstance(t, { hosts: [host()] });
    const res = await post(globalAdmin, { code: other.code, name: 'Renamed by GA' }).expect(200);
    expect(res.body.code).toBe(other.code);
    expect((await current(other)).name).toBe('Renamed by GA');
    await post(globalAdmin, { code: 'NoSuchInstance123', name: 'x' }).expect(404);
  });

  it('forbids instance users (403) and anonymous callers (401)', async () => {
    const { instance, user } = await world();
    expect((await post(user, { name: 'Nope' }).expect(403)).body).toEqual({ code: 403, message: 'SHARED.ERROR.FORBIDDEN' });
    expect((await post(undefined, { name: 'Nope' }).expect(401)).body).toEqual({ code: 401, message: 'SHARED.ERROR.UNAUTHORIZED' });
    expect((await current(instance)).name).toBe(instance.name);
  });

  describe('bad input: 422 with the broken rules, and nothing changes', () => {
    let w: Awaited<ReturnType<typeof world>>;
    beforeAll(async () => {
      w = await world();
    });
    afterEach(async () => {
      const res = await t.http().get(`/api/Instance/${w.instance.code}`).set('Authorization', `Bearer ${w.admin.token}`).expect(200);
      expect(res.body).toMatchObject({ name: w.instance.name, color: '228be6', accent: '7950f2', logoUrl: null, customCss: '', hosts: w.instance.hosts });
    });

    it.each([
      [{ color: '#abc123' }, 'VALIDATION.COLOR.IS_HEX_COLOR'],
      [{ color: 'abc' }, 'VALIDATION.COLOR.IS_HEX_COLOR'],
      [{ color: 'ggg000' }, 'VALIDATION.COLOR.IS_HEX_COLOR'],
      [{ color: 'abc1234' }, 'VALIDATION.COLOR.IS_HEX_COLOR'],
      [{ color: 123456 }, 'VALIDATION.COLOR.IS_HEX_COLOR'],
      [{ color: null }, 'VALIDATION.COLOR.IS_HEX_COLOR'],
      [{ accent: '#7950F2' }, 'VALIDATION.ACCENT.IS_HEX_COLOR'],
      [{ accent: ['7950f2'] }, 'VALIDATION.ACCENT.IS_HEX_COLOR'],
      [{ name: 'x'.repeat(101) }, 'VALIDATION.NAME.MAX_LENGTH'],
      [{ name: '   ' }, 'VALIDATION.NAME.IS_NOT_BLANK'],
      [{ name: 'two\nlines' }, 'VALIDATION.NAME.NO_CONTROL_CHARACTERS'],
      [{ name: 42 }, 'VALIDATION.NAME.IS_STRING'],
      [{ name: { first: 'x' } }, 'VALIDATION.NAME.IS_STRING'],
      [{ logoUrl: 'javascript:alert(1)' }, 'VALIDATION.LOGO_URL.MATCHES'],
      [{ logoUrl: 'http://cdn.example.com/logo.png' }, 'VALIDATION.LOGO_URL.MATCHES'],
      [{ logoUrl: '//cdn.example.com/logo.png' }, 'VALIDATION.LOGO_URL.MATCHES'],
      [{ logoUrl: `https://x.example/${'a'.repeat(2048)}` }, 'VALIDATION.LOGO_URL.MAX_LENGTH'],
      [{ customCss: '@import url(/x.css);' }, 'VALIDATION.CUSTOM_CSS.IMPORT'],
      [{ customCss: '</style><script>alert(1)</script>' }, 'VALIDATION.CUSTOM_CSS.STYLE_TAG'],
      [{ customCss: '.a { background: url(http://tracker.example/p.gif) }' }, 'VALIDATION.CUSTOM_CSS.UNSAFE_URL'],
      [{ customCss: '.a { width: expression(alert(1)) }' }, 'VALIDATION.CUSTOM_CSS.SCRIPT'],
      [{ customCss: 'x'.repeat(50 * 1024 + 1) }, 'VALIDATION.CUSTOM_CSS.MAX_LENGTH'],
      [{ customCss: 'ż'.repeat(26_000) }, 'VALIDATION.CUSTOM_CSS.TOO_LONG'],
      [{ hosts: ['evil.test'] }, 'VALIDATION.HOSTS.UNKNOWN_FIELD'],
      [{ isDefault: true }, 'VALIDATION.IS_DEFAULT.UNKNOWN_FIELD'],
      [{ code: '../x' }, 'VALIDATION.CODE.MATCHES'],
      [{}, 'VALIDATION.INSTANCE.NOTHING_TO_UPDATE'],
    ])('%j → %s', async (body, rule) => {
      const res = await post(w.admin, body).expect(422);
      expect(res.body).toEqual(rules(rule));
    });

    it('counts naming the own instance alone as nothing to update', async () => {
      expect((await post(w.admin, { code: w.instance.code }).expect(422)).body).toEqual(rules('VALIDATION.INSTANCE.NOTHING_TO_UPDATE'));
    });

    it('reports every broken rule at once', async () => {
      const res = await post(w.admin, { color: '#000', name: '', extra: 1 }).expect(422);
      expect(res.body.data.brokenRules.sort()).toEqual(
        ['VALIDATION.COLOR.IS_HEX_COLOR', 'VALIDATION.EXTRA.UNKNOWN_FIELD', 'VALIDATION.NAME.IS_NOT_BLANK'].sort(),
      );
    });

    it('refuses an array body and a NUL character', async () => {
      expect((await post(w.admin, [{ name: 'x' }]).expect(422)).body).toEqual(rules('VALIDATION.BODY.NOT_AN_OBJECT'));
      expect((await post(w.admin, { name: 'a\u0000b' }).expect(422)).body).toEqual(rules('VALIDATION.BODY.NUL_CHARACTER'));
    });
  });
});
