import type { Job, JobRole, JobRoleUser, JobVersion, SaveJobBody } from '@/api/job.api';
import { rules } from '@/components/form/form-messages';
import { t, tk } from '@/i18n/i18n';
import { LANGUAGES, type LanguageCode, languageOf } from '@/i18n/languages';
import { localInputToDate, localInputToUtcIso, toLocalInput } from '@/components/format/dates';

/** Spec section 5: the job translation form. */
export const DEFAULT_JOB_TITLE = 'Default job title';
export const DEFAULT_JOB_DESCRIPTION = 'Default short job description';
export const JOB_TITLE_MIN = 6;
export const JOB_TITLE_MAX = 200;
export const JOB_DESCRIPTION_MIN = 20;
export const JOB_DESCRIPTION_MAX = 10_000;

export interface VersionValues {
  lang: string;
  title: string;
  description: string;
  isDefault: boolean;
}

export interface JobFormValues {
  /** The picker's local value 'yyyy-MM-ddTHH:mm', '' for none. */
  deadline: string;
  versions: VersionValues[];
}

/** Field path → message, as Mantine's form holds errors ('deadline', 'versions.1.title', 'versions'). */
export type JobFormErrors = Record<string, string>;

const languageCodes = LANGUAGES.map((l) => l.code) as readonly string[];

/** A new translation: the first language not used yet (none left: empty) and the spec's default texts. */
export function newVersion(used: readonly string[], isDefault = false, preferred?: string): VersionValues {
  const free = [preferred, ...languageCodes].find((code) => code && languageCodes.includes(code) && !used.includes(code)) ?? '';
  return { lang: free, title: DEFAULT_JOB_TITLE, description: DEFAULT_JOB_DESCRIPTION, isDefault };
}

/** A new job's form: one default translation in the writer's language. */
export function emptyJobForm(language: LanguageCode): JobFormValues {
  return { deadline: '', versions: [newVersion([], true, language)] };
}

/** A stored job's form: its deadline in local time and its versions, the default first. */
export function jobToForm(job: Pick<Job, 'deadline' | 'versions'>): JobFormValues {
  const versions = [...job.versions].sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
  return { deadline: toLocalInput(job.deadline), versions: versions.map((v) => ({ ...v })) };
}

export function addVersion(values: JobFormValues): VersionValues[] {
  return [
    ...values.versions,
    newVersion(
      values.versions.map((v) => v.lang),
      values.versions.length === 0,
    ),
  ];
}

/** Removes a version; when it was the default, the first remaining one becomes the default. */
export function removeVersion(values: JobFormValues, index: number): VersionValues[] {
  const rest = values.versions.filter((_, i) => i !== index);
  if (rest.length && !rest.some((v) => v.isDefault)) rest[0] = { ...rest[0], isDefault: true };
  return rest;
}

/** Exactly one default version: this one. */
export const setDefaultVersion = (values: JobFormValues, index: number): VersionValues[] => values.versions.map((v, i) => ({ ...v, isDefault: i === index }));

/** The first language used more than once, with how often (the server's uniqueTranslation {value, count}). */
export function uniqueTranslation(versions: readonly Pick<VersionValues, 'lang'>[]): { value: string; count: number } | null {
  const counts = new Map<string, number>();
  for (const v of versions) if (v.lang) counts.set(v.lang, (counts.get(v.lang) ?? 0) + 1);
  const repeated = [...counts].find(([, count]) => count > 1);
  return repeated ? { value: repeated[0], count: repeated[1] } : null;
}

/** A language's name for messages ('English (eng)'); an unknown code as it is. */
export function languageName(code: string): string {
  return languageCodes.includes(code) ? `${languageOf(code as LanguageCode).label} (${code})` : code;
}

const minTrimmed = (min: number) => (value: string) => rules.minLength(min)(value.trim());

/**
 * Every rule of the job translation form, in the current language: lang required and each language once
 * (uniqueTranslation with the language and its count, on every repeated entry), title required and at least
 * 6 characters, description required and at least 20 (both trimmed, as the server counts), exactly one
 * default version, and a deadline that is a real local time in the future (an unchanged stored one may have passed).
 */
export function validateJobForm(values: JobFormValues, options: { now?: number; storedDeadline?: string } = {}): JobFormErrors {
  const errors: JobFormErrors = {};
  const now = options.now ?? Date.now();
  if (values.deadline.trim()) {
    const at = localInputToDate(values.deadline);
    if (!at) errors.deadline = t('JOBS.FORM.DEADLINE_INVALID');
    else if (at.getTime() <= now && values.deadline !== options.storedDeadline) errors.deadline = t('JOBS.FORM.DEADLINE_PAST');
  }
  const repeated = uniqueTranslation(values.versions);
  values.versions.forEach((v, i) => {
    const lang = rules.required()(v.lang);
    if (lang) errors[`versions.${i}.lang`] = lang;
    else if (repeated && v.lang === repeated.value) {
      errors[`versions.${i}.lang`] = t('JOBS.FORM.UNIQUE_TRANSLATION', { value: languageName(repeated.value), count: repeated.count });
    }
    const title = rules.required()(v.title) ?? minTrimmed(JOB_TITLE_MIN)(v.title);
    if (title) errors[`versions.${i}.title`] = title;
    const description = rules.required()(v.description) ?? minTrimmed(JOB_DESCRIPTION_MIN)(v.description);
    if (description) errors[`versions.${i}.description`] = description;
  });
  if (values.versions.length === 0) errors.versions = t('JOBS.FORM.ONE_VERSION');
  else if (values.versions.filter((v) => v.isDefault).length !== 1) errors.versions = t('JOBS.FORM.ONE_DEFAULT');
  return errors;
}

/** Every field path of the form, for marking them all touched on a submit attempt. */
export function fieldPaths(values: JobFormValues): string[] {
  return ['deadline', 'versions', ...values.versions.flatMap((_, i) => ['lang', 'title', 'description'].map((f) => `versions.${i}.${f}`))];
}

/**
 * The body of POST /api/job (or /api/job/{code}): deadline as UTC ISO, texts trimmed. An unchanged stored
 * deadline is left out, so the server keeps it to the second (the picker has minutes) even when it has passed.
 */
export function formToBody(values: JobFormValues, storedDeadline?: string): SaveJobBody {
  const unchanged = storedDeadline !== undefined && values.deadline === storedDeadline;
  return {
    ...(unchanged ? {} : { deadline: localInputToUtcIso(values.deadline) ?? null }),
    versions: values.versions.map((v): JobVersion => ({ lang: v.lang, title: v.title.trim(), description: v.description.trim(), isDefault: v.isDefault })),
  };
}

export type RoleUsers = Record<number, JobRoleUser[]>;

export const rolesToUsers = (roles: readonly JobRole[]): RoleUsers => Object.fromEntries(roles.map((r) => [r.id, [...r.users]]));

/** The roles whose users differ from what is stored (order counts: the server keeps it). */
export function changedRoles(stored: RoleUsers, edited: RoleUsers): number[] {
  const codes = (users: readonly JobRoleUser[] | undefined) => (users ?? []).map((u) => u.code).join(',');
  return Object.keys(edited)
    .map(Number)
    .filter((id) => codes(stored[id]) !== codes(edited[id]));
}

/** The job roles (shared/contracts/offers.ts JOB_ROLES); names are translation keys. */
export const JOB_ROLES = [
  { id: 1, name: tk('JOB.ROLE.MANAGER') },
  { id: 2, name: tk('JOB.ROLE.REVIEWER') },
  { id: 3, name: tk('JOB.ROLE.CONTRIBUTOR') },
  { id: 4, name: tk('JOB.ROLE.OBSERVER') },
] as const;
