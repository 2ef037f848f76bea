/**
 * Which language detector suggests the composer's language: accuracy of the npm candidates on short chat messages
 * in the product's languages (scripts/bench/chat-language-corpus.mts), each limited to those seven languages as
 * the client uses it, with the time per message and the size the browser would download.
 *
 *   npm run bench:language-detectors
 *
 * Candidates other than the one the client uses are installed for the run only:
 *   npm install --no-save eld@2.1.0 tinyld@1.3.4 franc-min@6.2.0
 */
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CHAT_CORPUS } from './chat-language-corpus.mts';

type Lang = keyof typeof CHAT_CORPUS;
const LANGS = Object.keys(CHAT_CORPUS) as Lang[];
/** The product's codes and ISO 639-1, which eld and tinyld answer in (franc answers ISO 639-3, 'deu' for German). */
const ISO1: Record<Lang, string> = { eng: 'en', pol: 'pl', rus: 'ru', hin: 'hi', ger: 'de', spa: 'es', fra: 'fr' };
const ISO3: Record<Lang, string> = { eng: 'eng', pol: 'pol', rus: 'rus', hin: 'hin', ger: 'deu', spa: 'spa', fra: 'fra' };
const fromIso = (table: Record<Lang, string>, code: string): Lang | null => LANGS.find((l) => table[l] === code) ?? null;

interface Candidate {
  name: string;
  /** the files the browser would load for it */
  files: string[];
  detect: (text: string) => Lang | null;
}

const require = createRequire(import.meta.url);
const fileOf = (spec: string) => require.resolve(spec);
/** node_modules/<name>: some packages export no package.json to resolve */
const packageDir = (name: string) => join(process.cwd(), 'node_modules', name);

async function candidates(): Promise<Candidate[]> {
  const found: Candidate[] = [];
  const missing: string[] = [];
  for (const size of ['small', 'extrasmall'] as const) {
    try {
      const { eld } = (await import(`eld/${size}`)) as { eld: { detect(t: string): { language: string }; setLanguageSubset(l: string[]): unknown } };
      eld.setLanguageSubset(Object.values(ISO1));
      found.push({
        name: `eld ${size}`,
        files: [join(packageDir('eld'), 'src/ngrams', `${size}.js`)],
        detect: (t) => fromIso(ISO1, eld.detect(t).language),
      });
    } catch {
      missing.push(`eld/${size}`);
    }
  }
  for (const size of ['light', 'normal'] as const) {
    try {
      const tinyld = (await import(size === 'normal' ? 'tinyld' : `tinyld/${size}`)) as { detect(t: string, o: { only: string[] }): string };
      found.push({
        name: `tinyld ${size}`,
        files: [join(packageDir('tinyld'), 'dist', `tinyld.${size}.browser.js`)],
        detect: (t) => fromIso(ISO1, tinyld.detect(t, { only: Object.values(ISO1) })),
      });
    } catch {
      missing.push(`tinyld/${size}`);
    }
  }
  try {
    const francMin = 'franc-min'; // not a dependency: installed for the run
    const { franc } = (await import(francMin)) as { franc(t: string, o: { only: string[]; minLength: number }): string };
    found.push({
      name: 'franc-min',
      files: [fileOf('franc-min'), join(packageDir('franc-min'), 'data.js')],
      detect: (t) => fromIso(ISO3, franc(t, { only: Object.values(ISO3), minLength: 1 })),
    });
  } catch {
    missing.push('franc-min');
  }
  if (missing.length) console.log(`not installed (npm install --no-save …): ${missing.join(', ')}\n`);
  return found;
}

const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(0)}%`.padStart(5);
const kib = (files: string[]) => {
  const bytes = files.reduce((sum, f) => {
    try {
      return sum + statSync(f).size;
    } catch {
      return sum;
    }
  }, 0);
  return `${Math.round(bytes / 1024)} KiB`;
};

const found = await candidates();
const total = LANGS.reduce((n, l) => n + CHAT_CORPUS[l].length, 0);
console.log(
  `${total} messages, ${CHAT_CORPUS.eng.length} per language, median ${median(LANGS.flatMap((l) => CHAT_CORPUS[l].map((m) => m.length)))} characters\n`,
);
console.log(['detector'.padEnd(18), ...LANGS.map((l) => l.padStart(5)), '  all', '  µs/msg', '  size (raw)'].join(' '));
const rows: { name: string; right: number }[] = [];
for (const c of found) {
  const perLang = LANGS.map((l) => CHAT_CORPUS[l].filter((m) => c.detect(m) === l).length);
  const right = perLang.reduce((a, b) => a + b, 0);
  const rounds = 20;
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) for (const l of LANGS) for (const m of CHAT_CORPUS[l]) c.detect(m);
  const us = Number(process.hrtime.bigint() - start) / 1000 / (rounds * total);
  rows.push({ name: c.name, right });
  console.log(
    [c.name.padEnd(18), ...perLang.map((n) => pct(n, CHAT_CORPUS.eng.length)), pct(right, total), us.toFixed(0).padStart(8), kib(c.files).padStart(12)].join(
      ' ',
    ),
  );
}
// While typing, the composer sees a message's beginning: the first three words of each.
const firstWords = (m: string) => m.split(/\s+/).slice(0, 3).join(' ');
console.log(`\nthe first three words only (what the composer sees while typing):`);
for (const c of found) {
  const perLang = LANGS.map((l) => CHAT_CORPUS[l].filter((m) => c.detect(firstWords(m)) === l).length);
  const right = perLang.reduce((a, b) => a + b, 0);
  const row = rows.find((r) => r.name === c.name)!;
  row.right += right;
  console.log([c.name.padEnd(18), ...perLang.map((n) => pct(n, CHAT_CORPUS.eng.length)), pct(right, total)].join(' '));
}
const best = [...rows].sort((a, b) => b.right - a.right)[0];
if (best) console.log(`\nmost accurate over both: ${best.name} (${best.right}/${2 * total})`);
const wrong = found.find((c) => c.name === best?.name);
if (wrong) {
  const misses = LANGS.flatMap((l) => CHAT_CORPUS[l].filter((m) => wrong.detect(m) !== l).map((m) => `  ${l} → ${wrong.detect(m) ?? '?'}: ${m}`));
  if (misses.length) console.log(`its misses:\n${misses.join('\n')}`);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
