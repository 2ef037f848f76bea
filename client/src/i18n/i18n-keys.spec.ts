import en from './locales/en.json';
import pl from './locales/pl.json';
import { compareKeys, extractKeys, flattenKeys } from './i18n-keys';

declare const __dirname: string;

interface Fs {
  readdirSync(dir: string, options: { withFileTypes: true }): { name: string; isDirectory(): boolean }[];
  readFileSync(path: string, encoding: 'utf8'): string;
}
const fs = jest.requireActual('fs') as Fs;
const SRC = `${__dirname}/..`;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.spec\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const codeKeys = new Set(sourceFiles(SRC).flatMap((file) => extractKeys(fs.readFileSync(file, 'utf8'))));

describe('translation keys', () => {
  it('finds the keys the code uses', () => {
    expect(codeKeys.size).toBeGreaterThan(50);
    expect(codeKeys.has('SHARED.USER.SESSION_EXPIRED')).toBe(true);
  });

  it.each([
    ['en', en],
    ['pl', pl],
  ])('%s has every key the code uses and no other', (locale, resources) => {
    expect(compareKeys(codeKeys, flattenKeys(resources), locale)).toEqual({ missing: [], orphaned: [] });
  });
});

describe('the key extractor', () => {
  it('reads literal keys of t, i18n.t and tk, and skips dynamic ones', () => {
    const source = "t('A.B'); i18n.t(\"C.D\", { n }); tk(`E.F`); t(key); t(`G.${x}`); format('H.I'); it('J.K')";
    expect(extractKeys(source)).toEqual(['A.B', 'C.D', 'E.F']);
  });

  it('reports missing and orphaned keys, with plural forms per locale', () => {
    expect(compareKeys(['A', 'P'], ['A', 'P_one', 'P_other', 'Z'], 'en')).toEqual({ missing: [], orphaned: ['Z'] });
    expect(compareKeys(['A', 'P'], ['P_one', 'P_other'], 'pl')).toEqual({ missing: ['A', 'P'], orphaned: [] });
    expect(compareKeys(['P'], ['P_one', 'P_few', 'P_many', 'P_other'], 'pl')).toEqual({ missing: [], orphaned: [] });
    expect(flattenKeys({ A: { B: 'x', C: { D: 'y' } } })).toEqual(['A.B', 'A.C.D']);
  });
});
