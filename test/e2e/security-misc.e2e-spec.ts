import { createECDH, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createGroup, createInstance, createUser, DEFAULT_PASSWORD, TestUser, uniqueEmail } from '../factories';
import { Role } from '#shared/contracts/roles';
import { createTestApp, TestApp } from '../utils/create-app';
import { testEnv } from '../utils/test-env';
import { loadConfig } from '#shared/config/load-config';

// Replays of the security probe's findings on names, push endpoints and the listen address (issue 36, items 12, 16, 17).
jest.setTimeout(60_000);

const auth = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });

/** A browser's push subscription keys: its own P-256 key pair and auth secret. */
const browserKeys = () => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
};
const endpoint = () => `https://push.example.com/send/${randomBytes(12).toString('hex')}`;

describe('security: names and push endpoints', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('item 12: display names are cleaned like file names wherever they are written', () => {
    const register = (fields: Record<string, unknown>) =>
      t
        .http()
        .post('/api/user')
        .send({ email: uniqueEmail('names'), password: DEFAULT_PASSWORD, ...fields });

    it('drops controls, bidi overrides, isolates and marks, zero-width characters, the BOM and separators, in NFC', async () => {
      const res = await register({ name: '\u202eAd\u200ba\u2066\u0007', surname: ' \ufeffLove\u200dlace\u2028\u200e Cafe\u0301 ' }).expect(201);
      expect([res.body.user.name, res.body.user.surname]).toEqual(['Ada', 'Lovelace Café']);
      const me = await t.http().get('/api/me').set('Authorization', `Bearer ${res.body.token}`).expect(200);
      expect([me.body.name, me.body.surname]).toEqual(['Ada', 'Lovelace Café']);
    });

    it('cleans the profile update the same way, and a name that cleans to nothing is 422 and changes nothing', async () => {
      const u = await createUser(t, { name: 'Grace', surname: 'Hopper' });
      const ok = await t.http().patch('/api/me').set(auth(u)).send({ name: '\u2067Grace\u2069', surname: 'Hop\u200cper\u0085' }).expect(200);
      expect([ok.body.name, ok.body.surname]).toEqual(['Grace', 'Hopper']);

      for (const name of ['\u202e', '\u200b\u200b', ' \ufeff\u2028 ', '\u0007\u001b\u0085']) {
        const bad = await t.http().patch('/api/me').set(auth(u)).send({ name });
        expect([bad.status, bad.body]).toEqual([422, { code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: ['VALIDATION.NAME.MIN_LENGTH'] } }]);
        const reg = await register({ name });
        expect([reg.status, reg.body.data?.brokenRules]).toEqual([422, ['VALIDATION.NAME.MIN_LENGTH']]);
      }
      const me = await t.http().get('/api/me').set(auth(u)).expect(200);
      expect(me.body.name).toBe('Grace');
    });

    it('makes two names that look the same the same text (so a look-alike cannot pass for a different one)', async () => {
      const a = await register({ name: 'Zoe\u0308', surname: 'Smith' }).expect(201);
      const b = await register({ name: 'Zo\u00eb\u200b', surname: '\u2066Smith' }).expect(201);
      expect(a.body.user.name).toBe(b.body.user.name);
      expect(a.body.user.surname).toBe(b.body.user.surname);
      // Still two people: the code, not the name, is who someone is.
      expect(a.body.user.code).not.toBe(b.body.user.code);
    });
  });

  describe('item 12: other display names', () => {
    it('cleans a chat group name and subtitle the same way; one that cleans to nothing means no name', async () => {
      const [a, b] = [await createUser(t), await createUser(t)];
      const code = await createGroup(t, [a, b]);
      const renamed = await t
        .http()
        .patch(`/api/message/groups/${code}`)
        .set(auth(a))
        .send({ name: '\u202eTe\u200bam\u2069', subtitle: '\ufeffplans\u0085' })
        .expect(200);
      expect(renamed.body).toMatchObject({ name: 'Team', subtitle: 'plans' });
      const cleared = await t.http().patch(`/api/message/groups/${code}`).set(auth(a)).send({ name: '\u200b\u202e', subtitle: '\u2066' }).expect(200);
      expect(cleared.body).toMatchObject({ name: null, subtitle: null });
    });

    it("refuses invisible characters in an instance's name (its page title) like control characters", async () => {
      const instance = await createInstance(t);
      const admin = await createUser(t, { instanceId: instance.id, role: Role.InstanceAdmin });
      for (const name of ['Acme\u202e jobs', 'Ac\u200bme', '\u2066Acme\u2069', 'Acme\u0085']) {
        const res = await t.http().post('/api/Instance').set(auth(admin)).send({ name });
        expect([res.status, res.body.data?.brokenRules]).toEqual([422, ['VALIDATION.NAME.NO_CONTROL_CHARACTERS']]);
      }
      await t.http().post('/api/Instance').set(auth(admin)).send({ name: 'Acme jobs' }).expect(200);
    });
  });

  describe('item 16: an endpoint moves to another user only from the browser that holds its keys', () => {
    const rows = (ep: string): Promise<{ user_id: string; p256dh: string; auth: string }[]> =>
      t.app.get(DataSource).query(`SELECT user_id, p256dh, auth FROM push_subscription WHERE endpoint = $1`, [ep]);

    it('moves the endpoint when another user registers it with the same keys (a new login on the same browser)', async () => {
      const [a, b] = [await createUser(t), await createUser(t)];
      const sub = { endpoint: endpoint(), keys: browserKeys() };
      await t.http().post('/api/User/WebPush/Register').set(auth(a)).send(sub).expect(204);
      await t.http().post('/api/User/WebPush/Register').set(auth(b)).send(sub).expect(204);
      expect(await rows(sub.endpoint)).toEqual([{ user_id: b.user.id, ...sub.keys }]);
    });

    it('refuses another user with other keys (someone who only learned the URL) with 409, changing nothing', async () => {
      const [owner, thief] = [await createUser(t), await createUser(t)];
      const sub = { endpoint: endpoint(), keys: browserKeys() };
      await t.http().post('/api/User/WebPush/Register').set(auth(owner)).send(sub).expect(204);
      for (const keys of [browserKeys(), { ...sub.keys, auth: browserKeys().auth }, { ...sub.keys, p256dh: browserKeys().p256dh }]) {
        const res = await t.http().post('/api/User/WebPush/Register').set(auth(thief)).send({ endpoint: sub.endpoint, keys });
        expect([res.status, res.body]).toEqual([409, { code: 409, message: 'SHARED.PUSH.ENDPOINT_TAKEN' }]);
      }
      expect(await rows(sub.endpoint)).toEqual([{ user_id: owner.user.id, ...sub.keys }]);
    });

    it("lets the owner renew their own endpoint's keys", async () => {
      const u = await createUser(t);
      const sub = { endpoint: endpoint(), keys: browserKeys() };
      await t.http().post('/api/User/WebPush/Register').set(auth(u)).send(sub).expect(204);
      const renewed = browserKeys();
      await t.http().post('/api/User/WebPush/Register').set(auth(u)).send({ endpoint: sub.endpoint, keys: renewed }).expect(204);
      expect(await rows(sub.endpoint)).toEqual([{ user_id: u.user.id, ...renewed }]);
    });
  });

  describe('item 17: outside production the server listens on loopback unless HOST says otherwise', () => {
    const production = { NODE_ENV: 'production', VAPID_PUBLIC_KEY: 'public', VAPID_PRIVATE_KEY: 'private' };

    it('defaults HOST to 127.0.0.1 in development and tests, and to every interface in production', () => {
      expect(loadConfig(testEnv({ NODE_ENV: 'development' })).HOST).toBe('127.0.0.1');
      expect(loadConfig(testEnv()).HOST).toBe('127.0.0.1');
      expect(loadConfig(testEnv(production)).HOST).toBe('0.0.0.0');
    });

    it('takes HOST as configured in any environment', () => {
      expect(loadConfig(testEnv({ NODE_ENV: 'development', HOST: '0.0.0.0' })).HOST).toBe('0.0.0.0');
      expect(loadConfig(testEnv({ ...production, HOST: '127.0.0.1' })).HOST).toBe('127.0.0.1');
    });
  });
});
