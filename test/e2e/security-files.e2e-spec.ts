import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { FileRenditionsService } from '../../server/src/modules/files/file-renditions.service';
import { createUser, TestUser } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';
import { pngBomb } from '../utils/png-bomb';
import { waitFor } from '../utils/wait';

// Issue 36, item 5: image decompression bombs, the upload budget, the storage quota and deleting one's files.
const MAX_DECODED = 4_000_000;
const BUDGET_UNIT = 1_000_000;
const UPLOAD_LIMIT = 12;
const QUOTA = 1_000_000;

describe('security: files and images', () => {
  let t: TestApp;
  let dir: string;
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });
  const upload = (u: TestUser, data: Buffer, name: string) => t.http().post('/api/File').set(as(u)).field('type', 'ChatMessage').attach('file', data, name);
  const storedFiles = () => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  const usage = async (u: TestUser) => {
    const [row] = await t.app.get(DataSource).query(`SELECT bytes, files FROM user_file_usage WHERE user_id = $1`, [u.user.id]);
    return { bytes: Number(row?.bytes ?? 0), files: Number(row?.files ?? 0) };
  };
  const described = async (u: TestUser, code: string) => {
    const res = await t
      .http()
      .post('/api/File/List')
      .set(as(u))
      .send({ codeList: [code] })
      .expect(200);
    return res.body[0] as { hasThumbnail: boolean; kind: string } | undefined;
  };
  // An opaque RGBA image of width × height at 8 bits: decodes to width × height × 4 bytes.
  const rgba = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 4, background: { r: 200, g: 40, b: 90, alpha: 0.5 } } })
      .png()
      .toBuffer();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'parley-files-security-'));
    t = await createTestApp({
      FILES_DIR: dir,
      FILE_MAX_SIZE: String(2 * 1024 * 1024),
      FILE_IMAGE_MAX_DECODED_BYTES: String(MAX_DECODED),
      FILE_IMAGE_BUDGET_UNIT_BYTES: String(BUDGET_UNIT),
      UPLOAD_RATE_LIMIT: String(UPLOAD_LIMIT),
      UPLOAD_RATE_WINDOW: '600',
      FILE_QUOTA_BYTES: String(QUOTA),
    });
  });
  afterAll(async () => {
    await t.app.get(FileRenditionsService).drained();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a 10,000 × 10,000 16-bit PNG bomb from its header, before decoding a pixel', async () => {
    const u = await createUser(t);
    const bomb = pngBomb(); // ~780 KB that decode to 800 MB; a decode costs over a second of CPU here
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const before = storedFiles();
    const cpu = process.cpuUsage();
    const res = await upload(u, bomb, 'bomb.png');
    const used = process.cpuUsage(cpu);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      code: 422,
      message: 'SHARED.ERROR.VALIDATION',
      data: { brokenRules: ['VALIDATION.FILE.IMAGE_TOO_LARGE'], decodedBytes: 10_000 * 10_000 * 4 * 2, maxDecodedBytes: MAX_DECODED },
    });
    // Not a timing of the answer: the CPU this process spent on the request, against more than a second for one decode.
    expect((used.user + used.system) / 1000).toBeLessThan(500);
    expect(storedFiles()).toBe(before);
    expect(await usage(u)).toEqual({ bytes: 0, files: 0 });

    // The same header with IDAT bytes that do not inflate: any decode would fail (and the file would be kept as
    // plain bytes); the refusal can come from the header alone.
    const broken = Buffer.from(bomb);
    broken.fill(0x5a, 60, broken.length - 20);
    const refused = await upload(u, broken, 'broken-bomb.png').expect(422);
    expect(refused.body.data.brokenRules).toEqual(['VALIDATION.FILE.IMAGE_TOO_LARGE']);
  });

  it('takes an image just under the decoded limit and makes its renditions after answering', async () => {
    const u = await createUser(t);
    // 999 × 1000 RGBA = 3,996,000 decoded bytes, under 4,000,000; 1001 × 1000 is over it.
    await upload(u, await rgba(1001, 1000), 'over.png').expect(422);
    const png = await rgba(999, 1000);
    const up = await upload(u, png, 'under.png').expect(201);
    expect(up.body).toMatchObject({ kind: 'image', size: png.length });
    const { code, secureCode } = up.body;
    await waitFor(async () => (await described(u, code))?.hasThumbnail === true, { timeoutMs: 10_000 });
    const thumb = await t.http().get(`/api/File/${code}/${secureCode}/Thumbnail`).set(as(u)).buffer(true).expect(200);
    const meta = await sharp(thumb.body as Buffer).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([320, 320, 'png']);
    const preview = await sharp((await t.http().get(`/api/File/${code}/${secureCode}/Preview`).set(as(u)).buffer(true).expect(200)).body as Buffer).metadata();
    expect([preview.width, preview.height]).toEqual([999, 1000]);
    const icon = await sharp((await t.http().get(`/api/File/${code}/${secureCode}/Icon`).set(as(u)).buffer(true).expect(200)).body as Buffer).metadata();
    expect([icon.width, icon.height]).toEqual([64, 64]);
  });

  it('charges an image to the upload budget by its decoded size, other files one upload each', async () => {
    const u = await createUser(t);
    const image = await rgba(999, 1000); // 3,996,000 decoded bytes: 4 units of 1,000,000
    await upload(u, image, 'a.png').expect(201); // 4 of 12
    await upload(u, image, 'b.png').expect(201); // 8
    for (let i = 0; i < 3; i++) await upload(u, Buffer.from(`note ${i}`), `note${i}.txt`).expect(201); // 11
    const over = await upload(u, image, 'c.png'); // 15 > 12
    expect(over.status).toBe(429);
    expect(over.body.message).toBe('SHARED.ERROR.TOO_MANY_REQUESTS');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);

    // Another user's budget is their own; the same eleven units would be eleven plain files.
    const other = await createUser(t);
    for (let i = 0; i < UPLOAD_LIMIT; i++) await upload(other, Buffer.from(`x${i}`), 'x.txt').expect(201);
    await upload(other, Buffer.from('one more'), 'y.txt').expect(429);
  });

  it('keeps each user within the storage quota, counted in Postgres, also for concurrent uploads', async () => {
    const u = await createUser(t);
    const chunk = Buffer.alloc(300_000, 7);
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => upload(u, chunk, `part${i}.bin`)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 422, 422]);
    const refused = results.find((r) => r.status === 422)!;
    expect(refused.body).toEqual({
      code: 422,
      message: 'SHARED.ERROR.VALIDATION',
      data: { brokenRules: ['VALIDATION.FILE.QUOTA_EXCEEDED'], quotaBytes: QUOTA, usedBytes: 900_000 },
    });
    expect(await usage(u)).toEqual({ bytes: 900_000, files: 3 });

    // Deleting one frees its bytes for the next upload.
    const [first] = results.filter((r) => r.status === 201);
    await t.http().delete(`/api/File/${first.body.code}`).set(as(u)).expect(204);
    expect(await usage(u)).toEqual({ bytes: 600_000, files: 2 });
    await upload(u, chunk, 'again.bin').expect(201);
    await upload(u, Buffer.alloc(100_001, 1), 'one-too-many.bin').expect(422);
  });

  it('lets only the uploader delete a file: its bytes, renditions and place in messages go, the text stays', async () => {
    const [owner, peer, outsider] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    const before = storedFiles();
    const up = await upload(owner, await rgba(40, 30), 'dot.png').expect(201);
    const { code, secureCode } = up.body;
    await waitFor(async () => (await described(owner, code))?.hasThumbnail === true, { timeoutMs: 10_000 });
    expect(storedFiles()).toBe(before + 4); // the original and three renditions
    const started = await t
      .http()
      .put('/api/message/groups')
      .set(as(owner))
      .send({ userList: [peer.user.code], message: 'see the picture', files: [code], createNewGroup: true })
      .expect(200);
    expect(started.body.message.files).toEqual([code]);
    const groupCode = started.body.group.code;

    await t.http().delete(`/api/File/${code}`).set(as(peer)).expect(403);
    await t.http().delete(`/api/File/${code}`).set(as(outsider)).expect(404);
    await t.http().delete(`/api/File/${code}`).expect(401);
    await t.http().delete(`/api/File/${code}`).set(as(owner)).expect(204);
    await t.http().delete(`/api/File/${code}`).set(as(owner)).expect(404);

    expect(storedFiles()).toBe(before);
    expect(await usage(owner)).toEqual({ bytes: 0, files: 0 });
    await t.http().get(`/api/File/${code}/${secureCode}/Download`).set(as(peer)).expect(404);
    await t.http().get(`/api/File/${code}/${secureCode}/Thumbnail`).set(as(owner)).expect(404);
    expect(await described(peer, code)).toBeUndefined();
    const page = await t.http().post(`/api/message/groups/${groupCode}/messages`).set(as(peer)).send({}).expect(200);
    const message = page.body.messages.find((m: { message: string }) => m.message === 'see the picture');
    expect(message).toMatchObject({ files: [] });
  });
});
