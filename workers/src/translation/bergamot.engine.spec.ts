import { Logger } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { AppConfig } from '#shared/config/config.schema';
import { BergamotEngine, servedPairs } from './bergamot.engine';
import { TranslationFailure } from './translation-engine';
import { TranslationEngines } from './translation-engines';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A pair folder laid out as Mozilla publishes it, of random bytes: its registry entry says what they hash to. */
async function writePair(dir: string, key: string, options: { gzipped?: boolean } = {}) {
  const names = { model: `model.${key}.intgemm.alphas.bin`, lex: `lex.50.50.${key}.s2t.bin`, vocab: `vocab.${key}.spm` };
  await mkdir(join(dir, key), { recursive: true });
  const entry: Record<string, { name: string; size: number; expectedSha256Hash: string; modelType: string }> = {};
  for (const [part, name] of Object.entries(names)) {
    const bytes = randomBytes(part === 'model' ? 64 * 1024 : 4096);
    await writeFile(join(dir, key, options.gzipped ? `${name}.gz` : name), options.gzipped ? gzipSync(bytes) : bytes);
    entry[part] = { name, size: bytes.length, expectedSha256Hash: sha256(bytes), modelType: 'prod' };
  }
  return entry;
}

describe('Bergamot engine: its models verified and loaded at boot', () => {
  let dir: string;
  let warnings: string[];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-bergamot-'));
    warnings = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => void warnings.push(String(message)));
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves nothing, and says why, without a folder, with a folder that is not there, or without its checksums', async () => {
    for (const modelsDir of [undefined, join(dir, 'nowhere'), dir]) {
      const engine = new BergamotEngine({ modelsDir });
      await engine.start();
      expect(engine.pairs()).toEqual([]);
      await engine.stop();
    }
    expect(warnings).toEqual([
      'bergamot is listed in TRANSLATION_ENGINES but BERGAMOT_MODELS_DIR is not set; it serves nothing',
      expect.stringMatching(new RegExp(`^bergamot: BERGAMOT_MODELS_DIR ${join(dir, 'nowhere')} cannot be read \\(ENOENT\\); it serves nothing$`)),
      expect.stringMatching(/^bergamot: no usable registry\.json \(Mozilla's published checksums\) in .*; it serves nothing$/),
    ]);
  });

  it('refuses each pair with a missing file, a checksum that differs or none published, and files that are no model, and offers none of them', async () => {
    const registry: Record<string, unknown> = {};
    registry.enpl = await writePair(dir, 'enpl');
    // As in Mozilla's repository: gzipped, checked by what they hold.
    registry.deen = await writePair(dir, 'deen', { gzipped: true });
    registry.plen = await writePair(dir, 'plen');
    await rm(join(dir, 'plen', 'vocab.plen.spm'));
    registry.ende = await writePair(dir, 'ende');
    await writeFile(join(dir, 'ende', 'lex.50.50.ende.s2t.bin'), randomBytes(4096));
    await writePair(dir, 'esen');
    // A language outside the product is no concern of this engine.
    registry.enja = await writePair(dir, 'enja');
    await writeFile(join(dir, 'registry.json'), JSON.stringify(registry));

    const engine = new BergamotEngine({ modelsDir: dir });
    try {
      await engine.start();
      expect(engine.pairs()).toEqual([]);
      expect(engine.supports('eng', 'pol')).toBe(false);
      await expect(engine.translate(['Hello'], 'eng', 'pol', AbortSignal.timeout(1000))).rejects.toBeInstanceOf(TranslationFailure);
    } finally {
      await engine.stop();
    }
    const about = (key: string) => warnings.filter((w) => w.startsWith(`bergamot: model ${key} `));
    expect(about('plen')).toEqual([expect.stringMatching(/refused: vocab\.plen\.spm is missing; its pair is not offered$/)]);
    expect(about('ende')).toEqual([
      expect.stringMatching(/refused: lex\.50\.50\.ende\.s2t\.bin does not match its published checksum \(sha256 [0-9a-f]{64}, published [0-9a-f]{64}\)/),
    ]);
    expect(about('esen')).toEqual([expect.stringMatching(/refused: registry\.json lists no checksums for it; its pair is not offered$/)]);
    // These two pass the checksums; Bergamot's WASM, run for real, then refuses each (the second in a new runtime).
    for (const key of ['deen', 'enpl']) {
      expect(about(key)).toEqual([
        expect.stringMatching(
          /refused: its files match the published checksums but Bergamot cannot load them \(.*SentencePiece vocabulary error.*\); its pair is not offered$/,
        ),
      ]);
    }
    expect(about('enja')).toEqual([]);
  }, 60_000);

  it('serves the pairs of its models, and those through English where a model goes into English and another out of it', () => {
    expect(
      servedPairs([
        { from: 'spa', to: 'eng' },
        { from: 'eng', to: 'pol' },
        { from: 'eng', to: 'spa' },
        { from: 'pol', to: 'eng' },
      ]),
    ).toEqual([
      { from: 'spa', to: 'eng' },
      { from: 'eng', to: 'pol' },
      { from: 'eng', to: 'spa' },
      { from: 'pol', to: 'eng' },
      { from: 'spa', to: 'pol' },
      { from: 'pol', to: 'spa' },
    ]);
  });

  it('leaves the other engines of the list serving when its models are refused (Apertium, installed by .ci/run)', async () => {
    await writeFile(join(dir, 'registry.json'), JSON.stringify({ enpl: await writePair(dir, 'enpl') }));
    await writeFile(join(dir, 'enpl', 'vocab.enpl.spm'), 'not the published file');
    const config = {
      TRANSLATION_ENGINES: ['bergamot', 'apertium'],
      BERGAMOT_MODELS_DIR: dir,
      APERTIUM_APY_BIN: 'apertium-apy',
      APERTIUM_MODES_DIR: '/usr/share/apertium/modes',
    } as unknown as AppConfig;
    const engines = new TranslationEngines(config);
    try {
      await engines.start();
      expect(engines.pairs()).toEqual(expect.arrayContaining([{ from: 'spa', to: 'eng' }]));
      expect(engines.pairs()).not.toContainEqual({ from: 'eng', to: 'pol' });
      expect(engines.engineFor('spa', 'eng')?.name).toBe('apertium');
      expect(engines.engineFor('eng', 'pol')).toBeUndefined();
      expect(warnings).toContainEqual(expect.stringMatching(/^bergamot: model enpl .* refused: vocab\.enpl\.spm does not match its published checksum/));
    } finally {
      await engines.onApplicationShutdown();
    }
  });
});
