import { ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BATCH_SEPARATOR } from './apertium-batcher';
import { ApertiumEngine } from './apertium.engine';
import { TranslationFailure } from './translation-engine';

const MODES = '/usr/share/apertium/modes';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Debian's Apertium, for real (`.ci/run` installs apertium, apertium-eng-spa and apertium-apy). */
describe('Apertium engine', () => {
  it('discovers the installed pairs at boot, starts apertium-apy itself on first use, and stops it', async () => {
    const engine = new ApertiumEngine({ apyBin: 'apertium-apy', modesDir: MODES });
    await engine.start();
    expect(engine.pairs()).toEqual(
      expect.arrayContaining([
        { from: 'spa', to: 'eng' },
        { from: 'eng', to: 'spa' },
      ]),
    );
    expect(engine.supports('spa', 'pol')).toBe(false);
    try {
      expect(await engine.translate(['Hola mundo', 'Buenos días'], 'spa', 'eng', AbortSignal.timeout(20_000))).toEqual(['Hello World', 'Good morning']);
      await expect(engine.translate(['Hola'], 'spa', 'pol', AbortSignal.timeout(1000))).rejects.toBeInstanceOf(TranslationFailure);
    } finally {
      await engine.stop();
    }
  }, 30_000);

  it('carries texts asked for at once in few requests, each answered as if alone (a text holding the separator goes alone)', async () => {
    const engine = new ApertiumEngine({ apyBin: 'apertium-apy', modesDir: MODES });
    await engine.start();
    const texts = [
      'Necesitamos la cocina lista antes del viernes',
      'Te hice la transferencia esta mañana',
      '¿Puedes bajar un poco el precio?',
      'Buen trabajo, el jardín quedó precioso',
      `Hola.${BATCH_SEPARATOR}Gracias por todo`,
      'Llámame cuando llegues, por favor',
    ];
    try {
      const alone: string[] = [];
      for (const text of texts) alone.push(...(await engine.translate([text], 'spa', 'eng', AbortSignal.timeout(20_000))));
      // Many callers at once, as the translate jobs are: one request in flight, the rest joined into the next.
      const together = await Promise.all(
        Array.from({ length: 4 }, () => Promise.all(texts.map((text) => engine.translate([text], 'spa', 'eng', AbortSignal.timeout(20_000))))),
      );
      for (const answers of together) expect(answers.flat()).toEqual(alone);
      expect(alone[4]).toContain(BATCH_SEPARATOR);
    } finally {
      await engine.stop();
    }
  }, 40_000);

  it('uses an apertium-apy the operator runs (APERTIUM_URL), listing its pairs from it', async () => {
    const port = await freePort();
    const apy: ChildProcess = spawn('apertium-apy', ['-p', String(port), MODES], { stdio: 'ignore' });
    try {
      const engine = new ApertiumEngine({ url: `http://127.0.0.1:${port}`, apyBin: 'apertium-apy', modesDir: '/nowhere' });
      const deadline = Date.now() + 20_000;
      while (engine.pairs().length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        await engine.start();
      }
      expect(engine.pairs()).toEqual(expect.arrayContaining([{ from: 'eng', to: 'spa' }]));
      expect(await engine.translate(['Good morning'], 'eng', 'spa', AbortSignal.timeout(20_000))).toEqual(['Buenos días']);
    } finally {
      apy.kill();
    }
  }, 30_000);

  it('serves nothing when apertium-apy is not installed or no pair is', async () => {
    const missing = new ApertiumEngine({ apyBin: 'no-such-apertium-apy', modesDir: MODES });
    await missing.start();
    expect(missing.pairs()).toEqual([]);
    const dir = await mkdtemp(join(tmpdir(), 'modes-'));
    try {
      await writeFile(join(dir, 'spa-eng_US.mode'), '');
      await writeFile(join(dir, 'xyz-abc.mode'), '');
      const empty = new ApertiumEngine({ apyBin: 'apertium-apy', modesDir: dir });
      await empty.start();
      expect(empty.pairs()).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
