import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { LanguageCode } from '#shared/contracts/languages';
import { productLanguage } from './language-codes';

const gunzipAsync = promisify(gunzip);

/** Mozilla's checksum list, published with the models (firefox-translations-models' registry.json). */
export const REGISTRY_FILE = 'registry.json';

/** The parts of a model Bergamot loads; a pair has one vocabulary, or one per side. */
const PARTS = ['model', 'lex', 'vocab', 'srcvocab', 'trgvocab'] as const;
type Part = (typeof PARTS)[number];

/** One file of a pair as the registry lists it: its name, and the sha256 of its (uncompressed) bytes. */
interface PublishedFile {
  name: string;
  expectedSha256Hash: string;
}

/** A pair folder whose files are all there and match Mozilla's checksums. */
export interface VerifiedPair {
  /** the folder's name, as Mozilla names it: source then target, ISO 639-1 (enpl) */
  key: string;
  from: LanguageCode;
  to: LanguageCode;
  dir: string;
  files: Partial<Record<Part, PublishedFile>>;
}

/** A pair folder that is not offered, and why (logged as it stands). */
export interface RefusedPair {
  key: string;
  reason: string;
}

export interface ModelsFolder {
  verified: VerifiedPair[];
  refused: RefusedPair[];
  /** why nothing in the folder could be considered (no folder, no registry), else undefined */
  unusable?: string;
}

/** The buffers Bergamot's worker loads a model from (its loadTranslationModel). */
export interface ModelBuffers {
  model: ArrayBuffer;
  shortlist: ArrayBuffer;
  vocabs: ArrayBuffer[];
  config: Record<string, string>;
}

/**
 * The pair folders of BERGAMOT_MODELS_DIR, each checked against Mozilla's registry.json beside them: every file the
 * registry lists for that pair (model, lex, vocab or srcvocab and trgvocab) present, as named or gzipped as in
 * Mozilla's repository (name.gz), and its sha256 as published. Folders of languages outside the product are left
 * out; a folder the registry does not list, a missing file or a checksum that differs refuses that pair alone.
 */
export async function discoverModels(dir: string): Promise<ModelsFolder> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (err) {
    return {
      verified: [],
      refused: [],
      unusable: `BERGAMOT_MODELS_DIR ${dir} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    };
  }
  let registry: Record<string, Partial<Record<string, PublishedFile>>>;
  try {
    registry = JSON.parse(await readFile(join(dir, REGISTRY_FILE), 'utf8')) as typeof registry;
    if (typeof registry !== 'object' || registry === null || Array.isArray(registry)) throw new Error('not an object of pairs');
  } catch (err) {
    return { verified: [], refused: [], unusable: `no usable ${REGISTRY_FILE} (Mozilla's published checksums) in ${dir}: ${(err as Error).message}` };
  }
  const verified: VerifiedPair[] = [];
  const refused: RefusedPair[] = [];
  for (const key of entries.sort()) {
    const m = /^([a-z]{2})([a-z]{2})$/.exec(key);
    if (!m || !(await isDirectory(join(dir, key)))) continue;
    const from = productLanguage('bergamot', m[1]);
    const to = productLanguage('bergamot', m[2]);
    if (!from || !to) continue;
    const outcome = await verifyPair(join(dir, key), registry[key]);
    if (typeof outcome === 'string') refused.push({ key, reason: outcome });
    else verified.push({ key, from, to, dir: join(dir, key), files: outcome });
  }
  return { verified, refused };
}

/** The pair's files as published, or why they are refused. */
async function verifyPair(dir: string, published: Partial<Record<string, PublishedFile>> | undefined): Promise<Partial<Record<Part, PublishedFile>> | string> {
  if (!published || typeof published !== 'object') return `${REGISTRY_FILE} lists no checksums for it`;
  const files: Partial<Record<Part, PublishedFile>> = {};
  for (const part of PARTS) {
    const file = published[part];
    if (file === undefined) continue;
    if (typeof file?.name !== 'string' || !/^[\w.-]+$/.test(file.name) || !/^[0-9a-f]{64}$/i.test(file.expectedSha256Hash ?? '')) {
      return `${REGISTRY_FILE} has no file name and sha256 for its ${part}`;
    }
    files[part] = file;
  }
  if (!files.model || !files.lex || !(files.vocab || (files.srcvocab && files.trgvocab))) {
    return `${REGISTRY_FILE} lists no model, lex and vocabulary for it`;
  }
  for (const file of Object.values(files)) {
    let bytes: Buffer;
    try {
      bytes = await readPublished(dir, file.name);
    } catch (err) {
      return (err as Error).message;
    }
    const found = createHash('sha256').update(bytes).digest('hex');
    if (found !== file.expectedSha256Hash.toLowerCase())
      return `${file.name} does not match its published checksum (sha256 ${found}, published ${file.expectedSha256Hash})`;
  }
  return files;
}

/**
 * The buffers of a verified pair, read again and checked again (a file replaced since boot is refused), with the
 * model's settings as Bergamot's own loader sets them.
 */
export async function readModel(pair: VerifiedPair): Promise<ModelBuffers> {
  const read = async (file: PublishedFile): Promise<ArrayBuffer> => {
    const bytes = await readPublished(pair.dir, file.name);
    if (createHash('sha256').update(bytes).digest('hex') !== file.expectedSha256Hash.toLowerCase())
      throw new Error(`${file.name} changed since it was verified`);
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  };
  const { model, lex, vocab, srcvocab, trgvocab } = pair.files;
  return {
    model: await read(model!),
    shortlist: await read(lex!),
    vocabs: vocab ? [await read(vocab)] : [await read(srcvocab!), await read(trgvocab!)],
    // Mozilla's 8-bit models (intgemm8.bin) need this precision; the WASM build has the shifted variant only.
    config: model!.name.endsWith('intgemm8.bin') ? { 'gemm-precision': 'int8shiftAll' } : {},
  };
}

/** The file as named, else its gzipped copy (name.gz, as Mozilla's repository keeps them) uncompressed. */
async function readPublished(dir: string, name: string): Promise<Buffer> {
  const plain = await readFile(join(dir, name)).catch(() => null);
  if (plain) return plain;
  const gzipped = await readFile(join(dir, `${name}.gz`)).catch(() => null);
  if (!gzipped) throw new Error(`${name} is missing`);
  return gunzipAsync(gzipped).catch(() => {
    throw new Error(`${name}.gz cannot be uncompressed`);
  });
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
