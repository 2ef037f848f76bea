import { createUser, TestUser } from '../factories';
import { closeAllSockets, ListeningApp, listenTestApp } from '../utils/sockets';

/** Replays the chat-side reproductions of the security probe (issue 16) and asserts each is refused. */
describe('security: chat, files and push', () => {
  let t: ListeningApp;
  let a: TestUser;
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );

  beforeAll(async () => {
    t = await listenTestApp();
    a = await createUser(t);
  });
  afterEach(() => closeAllSockets());
  afterAll(() => t.close());

  describe('item 16: file names', () => {
    const upload = (name: string) => t.http().post('/api/File').set(as(a)).field('type', 'ChatMessage').attach('file', png, name);

    it('keeps a browser-sent UTF-8 name as the person wrote it (not latin1 mojibake)', async () => {
      const res = await upload('zażółć gęślą.pdf').expect(201);
      expect(res.body.name).toBe('zażółć gęślą.pdf');
      const dl = await t.http().get(`/api/File/${res.body.code}/${res.body.secureCode}/Download`).set(as(a)).expect(200);
      expect(dl.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('zażółć gęślą.pdf')}`);
    });

    it('drops bidirectional overrides and zero-width characters, so "\\u202egnp.exe" cannot pose as "exe.png"', async () => {
      const res = await upload('\u202egnp.exe').expect(201);
      expect(res.body.name).toBe('gnp.exe');
      const hidden = await upload('in\u200bvoice\u2066\u200d.p\u200cd\ufefff\u2069').expect(201);
      expect(hidden.body.name).toBe('invoice.pdf');
    });

    it('stores names in NFC, so the same name typed two ways is the same text', async () => {
      const res = await upload('cafe\u0301.txt').expect(201);
      expect(res.body.name).toBe('caf\u00e9.txt');
    });
  });
});
