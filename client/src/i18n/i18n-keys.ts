/**
 * The translation-key check: keys are extracted from the code (t('…'), i18n.t('…'), tk('…') with a
 * literal key) and compared with each locale file, so no key is missing and none is orphaned.
 */
const CALL = /(?<![\w$])(?:i18n\.t|t|tk)\(\s*(['"`])([A-Za-z0-9_.-]+)\1/g;
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

export function extractKeys(source: string): string[] {
  return [...source.matchAll(CALL)].map((m) => m[2]);
}

/** { A: { B: 'x' } } → ['A.B']. */
export function flattenKeys(tree: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return value !== null && typeof value === 'object' ? flattenKeys(value as Record<string, unknown>, path) : [path];
  });
}

export interface KeyReport {
  missing: string[];
  orphaned: string[];
}

/** Compares the keys the code uses with one locale; plural keys need every plural form of that locale. */
export function compareKeys(codeKeys: Iterable<string>, localeKeys: Iterable<string>, locale: string): KeyReport {
  const used = new Set(codeKeys);
  const present = new Set(localeKeys);
  const forms = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  const missing = [...used].filter((key) => !present.has(key) && !forms.every((form) => present.has(`${key}_${form}`)));
  const orphaned = [...present].filter((key) => !used.has(key) && !used.has(key.replace(PLURAL_SUFFIX, '')));
  return { missing: missing.sort(), orphaned: orphaned.sort() };
}
