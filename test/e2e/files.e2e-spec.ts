import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { Role } from '#shared/contracts/roles';
import { FileRenditionsService } from '../../server/src/modules/files/file-renditions.service';
import { createInstance, createUser, TestUser } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';
import { waitFor } from '../utils/wait';

const binary = (res: import('superagent').Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

describe('files', () => {
  let t: TestApp;
  let dir: string;
  let a: TestUser, b: TestUser, outsider: TestUser;
  let png: Buffer;
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });
  const upload = (u: TestUser, data: Buffer, name: string, type = 'ChatMessage') =>
    t.http().post('/api/File').set(as(u)).field('type', type).attach('file', data, name);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'parley-files-'));
    t = await createTestApp({ FILES_DIR: dir, FILE_MAX_SIZE: String(200 * 1024) });
    [a, b, outsider] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3366ff' } })
      .png()
      .toBuffer();
  });
  afterAll(async () => {
    await t.app.get(FileRenditionsService).drained();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores an image with PNG renditions and serves it to the group only', async () => {
    const up = await upload(a, png, 'holiday.png').expect(201);
    // Renditions are made after the answer; until then the file has none.
    expect(up.body).toMatchObject({ name: 'holiday.png', size: png.length, mime: 'image/png', kind: 'image', hasThumbnail: false });
    const { code, secureCode } = up.body;
    await waitFor(async () => {
      const [described] = (
        await t
          .http()
          .post('/api/File/List')
          .set(as(a))
          .send({ codeList: [code] })
      ).body;
      return described?.hasThumbnail === true;
    });

    const thumb = await t.http().get(`/api/File/${code}/${secureCode}/Thumbnail`).set(as(a)).buffer(true).parse(binary).expect(200);
    expect(thumb.headers['content-type']).toBe('image/png');
    expect(thumb.headers['x-content-type-options']).toBe('nosniff');
    const meta = await sharp(thumb.body as Buffer).metadata();
    expect([meta.width, meta.height]).toEqual([320, 240]);

    // Not shared yet: only the owner can read it.
    await t.http().get(`/api/File/${code}/${secureCode}/Preview`).set(as(b)).expect(404);
    const group = (
      await t
        .http()
        .put('/api/message/groups')
        .set(as(a))
        .send({ userList: [b.user.code], files: [code], createNewGroup: true })
        .expect(200)
    ).body;
    expect(group.message.files).toEqual([code]);
    await t.http().get(`/api/File/${code}/${secureCode}/Preview`).set(as(b)).expect(200);
    await t.http().get(`/api/File/${code}/${secureCode}/Icon`).set(as(b)).expect(200);
    await t.http().get(`/api/File/${code}/wrongSecureCode1/Preview`).set(as(b)).expect(404);
    await t.http().get(`/api/File/${code}/${secureCode}/Preview`).set(as(outsider)).expect(404);
    await t.http().get(`/api/File/${code}/${secureCode}/Preview`).expect(401);
    await t.http().get(`/api/File/${code}/${secureCode}/Nonsense`).set(as(a)).expect(404);
    // A moderator reads a chat's files only while watching it (test/e2e/security-chat.e2e-spec.ts).
    const admin = await createUser(t, { role: Role.InstanceAdmin });
    await t.http().get(`/api/File/${code}/${secureCode}/Thumbnail`).set(as(admin)).expect(404);
    const foreignAdmin = await createUser(t, { role: Role.InstanceAdmin, instanceId: (await createInstance(t)).id });
    await t.http().get(`/api/File/${code}/${secureCode}/Thumbnail`).set(as(foreignAdmin)).expect(404);

    const download = await t.http().get(`/api/File/${code}/${secureCode}/Download`).set(as(b)).buffer(true).parse(binary).expect(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="holiday.png"/);
    expect(Buffer.compare(download.body as Buffer, png)).toBe(0);

    const list = await t
      .http()
      .post('/api/File/List')
      .set(as(b))
      .send({ codeList: [code, 'unknownFile123'] })
      .expect(200);
    expect(list.body.map((f: { code: string }) => f.code)).toEqual([code]);
    const none = await t
      .http()
      .post('/api/File/List')
      .set(as(outsider))
      .send({ codeList: [code] })
      .expect(200);
    expect(none.body).toEqual([]);
    // Another user can't attach someone else's file.
    const g2 = (
      await t
        .http()
        .put('/api/message/groups')
        .set(as(outsider))
        .send({ userList: [a.user.code], createNewGroup: true })
    ).body.group.code;
    await t
      .http()
      .post(`/api/message/groups/${g2}`)
      .set(as(outsider))
      .send({ files: [code] })
      .expect(422);
  });

  it('sniffs the type from the bytes: a PNG named .exe is an image, an SVG with script is opaque bytes', async () => {
    const exe = await upload(a, png, 'setup.exe').expect(201);
    expect(exe.body).toMatchObject({ name: 'setup.exe', mime: 'image/png', kind: 'image' });

    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const up = await upload(a, svg, 'cat.svg').expect(201);
    expect(up.body).toMatchObject({ mime: 'application/octet-stream', kind: 'unknown', hasThumbnail: false });
    await t.http().get(`/api/File/${up.body.code}/${up.body.secureCode}/Preview`).set(as(a)).expect(404);
    const dl = await t.http().get(`/api/File/${up.body.code}/${up.body.secureCode}/Download`).set(as(a)).expect(200);
    expect(dl.headers['content-type']).toBe('application/octet-stream');
    expect(dl.headers['content-disposition']).toMatch(/^attachment;/);
    expect(dl.headers['content-security-policy']).toContain('sandbox');

    const html = await upload(a, Buffer.from('<html><script>x</script></html>'), 'page.html').expect(201);
    expect(html.body.mime).toBe('application/octet-stream');
  });

  it('strips paths from names and refuses empty, oversized and malformed uploads', async () => {
    const traversal = await upload(a, Buffer.from('data'), '../../etc/passwd').expect(201);
    expect(traversal.body.name).toBe('passwd');
    const windows = await upload(a, Buffer.from('data'), '..\\..\\boot.ini').expect(201);
    expect(windows.body.name).toBe('boot.ini');

    expect((await upload(a, Buffer.alloc(0), 'empty.txt')).status).toBe(422);
    const big = await upload(a, Buffer.alloc(201 * 1024, 1), 'big.bin');
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ code: 413, message: 'SHARED.ERROR.PAYLOAD_TOO_LARGE' });
    const wrongField = await t.http().post('/api/File').set(as(a)).field('type', 'ChatMessage').attach('upload', png, 'x.png');
    expect([400, 422]).toContain(wrongField.status);
    expect(wrongField.body.code).toBe(wrongField.status);
    const noFile = await t.http().post('/api/File').set(as(a)).field('type', 'ChatMessage');
    expect(noFile.status).toBe(422);
    const badType = await upload(a, png, 'x.png', 'Elsewhere');
    expect(badType.status).toBe(422);
    await t.http().post('/api/File').field('type', 'ChatMessage').attach('file', png, 'x.png').expect(401);
  });
});
