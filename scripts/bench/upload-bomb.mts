// Benchmark: what image decompression bombs from one account do to another user's latency (issue 36, item 5).
// Boots the built server in-process three times on one throw-away database, and in each phase measures another
// user's login (POST /api/user/login, argon2 on libuv's pool) and tiny download (GET …/Download, a file read on
// the same pool), back to back, while one account uploads BOMBS PNGs of 10,000 × 10,000 16-bit RGBA (~780 KB,
// 800 MB decoded) at once:
//   quiet           no uploads;
//   decode, 6 at once   the decoded-size limit high enough to decode and six renditions at once: the way every
//                   upload was decoded on the request path before, each on its own libuv thread;
//   decode, queue of 1  the limit high enough to decode, renditions through the queue at its default concurrency;
//   now             the defaults: every bomb refused from its header.
// Each phase measures until the bombs are answered and their renditions done (at least MIN_SECONDS).
// Prints figures; asserts nothing. Usage: npm run bench:upload-bomb [bombs=6] [min-seconds=4]
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pngBomb } from '../../test/utils/png-bomb.ts';
import { createBenchDatabase } from './bench-database.mts';

const require = createRequire(import.meta.url);
const BOMBS = Number(process.argv[2] ?? 6);
const MIN_SECONDS = Number(process.argv[3] ?? 4);
const PASSWORD = 'a long bench password 1';
const bench = await createBenchDatabase();
const filesDir = mkdtempSync(join(tmpdir(), 'parley-bench-bomb-'));
const common = {
  ...bench.env,
  FILES_DIR: filesDir,
  AUTH_RATE_LIMIT_IP: '1000000',
  AUTH_RATE_LIMIT_EMAIL: '1000000',
  UPLOAD_RATE_LIMIT: '1000000',
};
const PHASES: { name: string; env: Record<string, string>; bombs: boolean }[] = [
  { name: 'quiet', env: {}, bombs: false },
  { name: 'decode, 6 at once', env: { FILE_IMAGE_MAX_DECODED_BYTES: '1000000000', FILE_RENDITION_CONCURRENCY: '6' }, bombs: true },
  { name: 'decode, queue of 1', env: { FILE_IMAGE_MAX_DECODED_BYTES: '1000000000' }, bombs: true },
  { name: 'now (defaults)', env: {}, bombs: true },
];

const quantiles = (xs: number[]): string => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number): number => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
  return `p50 ${q(0.5).toFixed(1).padStart(7)} ms · p99 ${q(0.99).toFixed(1).padStart(7)} ms (n=${s.length})`;
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// The app comes from dist/ (require): typed there, not here.
let app: any; // eslint-disable-line @typescript-eslint/no-explicit-any
try {
  const { DataSource } = require('typeorm');
  // From dist: Nest modules, providers and entities need decorator metadata, which tsx does not emit.
  const { dataSourceOptions, runMigrations } = require('../../dist/server/src/database/data-source.js');
  const { PasswordService } = require('../../dist/server/src/modules/auth/password.service.js');
  const ds = await new DataSource(dataSourceOptions({ DATABASE_URL: bench.databaseUrl, DATABASE_POOL_SIZE: 2 })).initialize();
  await runMigrations(ds);
  const [instance] = await ds.query(`INSERT INTO instance (code, name, is_default) VALUES ('benchinst', 'Bench', true) RETURNING id`);
  const hash = await new PasswordService().hash(PASSWORD);
  const users = await ds.query(
    `INSERT INTO "user" (code, instance_id, email, password_hash, name)
     SELECT 'benchuser' || i, $1, 'u' || i || '@bench.test', $2, 'User' || i FROM generate_series(1, 5) i RETURNING id, code, email, role`,
    [instance.id, hash],
  );
  await ds.destroy();
  const [reader, ...attackers] = users;
  const bomb = pngBomb();
  const tiny = Buffer.from('a tiny file, a few bytes\n');
  console.log(`bombs: ${BOMBS} PNGs of ${(bomb.length / 1024).toFixed(0)} KB each, 10,000 × 10,000 16-bit RGBA (800 MB decoded)`);
  console.log(`libuv threads: ${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}; cores: ${require('node:os').availableParallelism()}`);

  const { NestFactory } = require('@nestjs/core');
  // From dist: Nest modules, providers and entities need decorator metadata, which tsx does not emit.
  const { AppModule } = require('../../dist/server/src/app.module.js');
  const { configureApp } = require('../../dist/server/src/app.setup.js');
  const { TokenService } = require('../../dist/server/src/modules/auth/token.service.js');
  const { FileRenditionsService } = require('../../dist/server/src/modules/files/file-renditions.service.js');
  for (const [i, phase] of PHASES.entries()) {
    for (const key of PHASES.flatMap((p) => Object.keys(p.env))) delete process.env[key];
    Object.assign(process.env, common, phase.env);
    app = await NestFactory.create(AppModule, { bodyParser: false, logger: false });
    configureApp(app);
    await app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
    const tokens = app.get(TokenService);
    const bearer = (user: unknown) => ({ Authorization: `Bearer ${tokens.sign(user).token}` });
    const uploadAs = async (user: unknown, data: Buffer, name: string) => {
      const form = new FormData();
      form.set('type', 'ChatMessage');
      form.set('file', new Blob([data]), name);
      const res = await fetch(`${base}/api/File`, { method: 'POST', headers: bearer(user), body: form });
      return { status: res.status, body: (await res.json()) as { code: string; secureCode: string; message?: string; data?: { brokenRules?: string[] } } };
    };
    const small = (await uploadAs(reader, tiny, 'tiny.txt')).body;
    const download = `${base}/api/File/${small.code}/${small.secureCode}/Download`;
    const readerAuth = bearer(reader);
    const login = JSON.stringify({ email: reader.email, password: PASSWORD });
    // Warm both paths, then measure each in its own loop, one request after another.
    for (let w = 0; w < 3; w++) {
      await fetch(`${base}/api/user/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: login });
      await (await fetch(download, { headers: readerAuth })).arrayBuffer();
    }
    let stop = false;
    const logins: number[] = [];
    const downloads: number[] = [];
    const probe = async (times: number[], once: () => Promise<void>) => {
      while (!stop) {
        const start = performance.now();
        await once();
        times.push(performance.now() - start);
        await sleep(20);
      }
    };
    const probes = [
      probe(logins, async () => {
        const res = await fetch(`${base}/api/user/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: login });
        if (res.status !== 200) throw new Error(`login answered ${res.status}`);
        await res.arrayBuffer();
      }),
      probe(downloads, async () => {
        const res = await fetch(download, { headers: readerAuth });
        if (res.status !== 200) throw new Error(`download answered ${res.status}`);
        await res.arrayBuffer();
      }),
    ];
    const started = performance.now();
    const answers = phase.bombs ? await Promise.all(Array.from({ length: BOMBS }, (_, b) => uploadAs(attackers[i - 1], bomb, `bomb${b}.png`))) : [];
    const answered = performance.now() - started;
    await app.get(FileRenditionsService).drained();
    const rendered = performance.now() - started;
    await sleep(Math.max(0, MIN_SECONDS * 1000 - rendered));
    stop = true;
    await Promise.all(probes);
    const statuses = answers.map((a) => (a.status === 201 ? 201 : `${a.status} ${a.body.data?.brokenRules?.[0] ?? a.body.message}`));
    console.log(
      `\n${phase.name}${phase.bombs ? `: bombs answered ${[...new Set(statuses)].join(', ')} in ${answered.toFixed(0)} ms, renditions done after ${rendered.toFixed(0)} ms` : ''}`,
    );
    console.log(`  another user's login          ${quantiles(logins)}`);
    console.log(`  another user's tiny download  ${quantiles(downloads)}`);
    await app.close();
    app = undefined;
  }
} finally {
  if (app) await app.close();
  rmSync(filesDir, { recursive: true, force: true });
  await bench.drop();
}
