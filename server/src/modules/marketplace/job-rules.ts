import { unprocessable } from '../../common/errors';
import { NewVersion } from './jobs.repository';

export interface VersionInput {
  lang: string;
  title: string;
  description: string;
  isDefault?: boolean;
}

/**
 * The list-level rules of the job translation form (the per-field ones are on the DTO): each language once
 * (uniqueTranslation, carrying the repeated value and how often it occurs) and at most one default
 * version; with none marked, the first one is the default. Texts are trimmed.
 */
export function checkVersions(versions: VersionInput[]): NewVersion[] {
  const counts = new Map<string, number>();
  for (const v of versions) counts.set(v.lang, (counts.get(v.lang) ?? 0) + 1);
  const repeated = [...counts].find(([, count]) => count > 1);
  const defaults = versions.filter((v) => v.isDefault).length;
  const rules: string[] = [];
  if (repeated) rules.push('VALIDATION.VERSIONS.UNIQUE_TRANSLATION');
  if (defaults > 1) rules.push('VALIDATION.VERSIONS.ONE_DEFAULT');
  if (rules.length) {
    throw unprocessable(rules, repeated ? { uniqueTranslation: { value: repeated[0], count: repeated[1] } } : undefined);
  }
  return versions.map((v, i) => ({
    lang: v.lang,
    title: v.title.trim(),
    description: v.description.trim(),
    isDefault: defaults === 0 ? i === 0 : v.isDefault === true,
  }));
}

/** A deadline given as UTC ISO must lie in the future; an unchanged stored one may be past. */
export function checkDeadline(value: string | null | undefined, stored: Date | null = null): Date | null {
  if (value === undefined || value === null) return null;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw unprocessable(['VALIDATION.DEADLINE.IS_ISO8601']);
  if (stored && stored.getTime() === at.getTime()) return at;
  if (at.getTime() <= Date.now()) throw unprocessable(['VALIDATION.DEADLINE.MIN_DATE']);
  return at;
}
