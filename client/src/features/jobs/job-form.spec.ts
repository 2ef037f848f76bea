import { changeI18nLanguage } from '@/i18n/i18n';
import {
  DEFAULT_JOB_DESCRIPTION,
  DEFAULT_JOB_TITLE,
  type JobFormValues,
  addVersion,
  changedRoles,
  emptyJobForm,
  formToBody,
  jobToForm,
  newVersion,
  removeVersion,
  setDefaultVersion,
  uniqueTranslation,
  validateJobForm,
} from './job-form';

afterEach(() => changeI18nLanguage('eng'));

const version = (lang: string, extra: Partial<JobFormValues['versions'][number]> = {}) => ({
  lang,
  title: 'Paint the fence',
  description: 'Two coats on a 20 m wooden fence.',
  isDefault: false,
  ...extra,
});
const form = (versions: JobFormValues['versions'], deadline = ''): JobFormValues => ({ deadline, versions });

describe('a new translation', () => {
  it("gets the spec's default texts and the first language not used yet", () => {
    expect(newVersion([])).toEqual({ lang: 'eng', title: DEFAULT_JOB_TITLE, description: DEFAULT_JOB_DESCRIPTION, isDefault: false });
    expect(DEFAULT_JOB_TITLE).toBe('Default job title');
    expect(DEFAULT_JOB_DESCRIPTION).toBe('Default short job description');
    expect(newVersion(['eng', 'pol']).lang).toBe('rus');
    expect(newVersion(['eng', 'pol', 'rus', 'hin', 'ger', 'spa', 'fra']).lang).toBe('');
    // A new job starts with one default version in the writer's language; its defaults pass every rule.
    const start = emptyJobForm('pol');
    expect(start.versions).toEqual([{ lang: 'pol', title: DEFAULT_JOB_TITLE, description: DEFAULT_JOB_DESCRIPTION, isDefault: true }]);
    expect(validateJobForm(start)).toEqual({});
    expect(addVersion(start)).toEqual([start.versions[0], { lang: 'eng', title: DEFAULT_JOB_TITLE, description: DEFAULT_JOB_DESCRIPTION, isDefault: false }]);
  });
});

describe('the job translation form rules', () => {
  it('requires lang, title and description, with the minimum lengths counted on trimmed text', () => {
    const errors = validateJobForm(form([version('', { title: '', description: '   ', isDefault: true })]));
    expect(errors).toEqual({
      'versions.0.lang': 'The field is required',
      'versions.0.title': 'The field is required',
      'versions.0.description': 'The field is required',
    });
    const short = validateJobForm(form([version('eng', { title: '  Short  ', description: 'x'.repeat(19), isDefault: true })]));
    expect(short).toEqual({
      'versions.0.title': 'The field should contain at least 6 characters',
      'versions.0.description': 'The field should contain at least 20 characters',
    });
    expect(validateJobForm(form([version('eng', { title: 'Just6!', description: 'x'.repeat(20), isDefault: true })]))).toEqual({});
  });

  it('answers with the Polish form messages', () => {
    changeI18nLanguage('pol');
    const errors = validateJobForm(form([version('eng', { title: '', description: 'krótki', isDefault: true })]));
    expect(errors['versions.0.title']).toBe('Pole jest wymagane');
    expect(errors['versions.0.description']).toBe('Pole powinno zawierać minimum 20 znaków');
    expect(validateJobForm(form([version('eng', { title: 'abc', isDefault: true })]))['versions.0.title']).toBe('Pole powinno zawierać minimum 6 znaków');
  });

  it('allows each language once: uniqueTranslation carries the language and its count, on every repeated entry', () => {
    const versions = [version('eng', { isDefault: true }), version('pol'), version('eng'), version('eng')];
    expect(uniqueTranslation(versions)).toEqual({ value: 'eng', count: 3 });
    const errors = validateJobForm(form(versions));
    const message = 'Each language may occur only once: English (eng) occurs 3 times';
    expect(errors).toEqual({ 'versions.0.lang': message, 'versions.2.lang': message, 'versions.3.lang': message });
    changeI18nLanguage('pol');
    expect(validateJobForm(form(versions))['versions.0.lang']).toBe('Każdy język może wystąpić tylko raz: English (eng) występuje 3 razy');
    // Empty languages are 'required', not repeated.
    expect(uniqueTranslation([version(''), version('')])).toBeNull();
  });

  it('wants exactly one default version, and keeps one through every change of the list', () => {
    expect(validateJobForm(form([version('eng'), version('pol')])).versions).toBe('Exactly one version must be the default');
    expect(validateJobForm(form([version('eng', { isDefault: true }), version('pol', { isDefault: true })])).versions).toBe(
      'Exactly one version must be the default',
    );
    expect(validateJobForm(form([])).versions).toBe('Add at least one language version');

    const values = form([version('eng', { isDefault: true }), version('pol'), version('ger')]);
    expect(setDefaultVersion(values, 2).map((v) => v.isDefault)).toEqual([false, false, true]);
    // Removing the default hands it to the first remaining version; removing another keeps it.
    expect(removeVersion(values, 0).map((v) => [v.lang, v.isDefault])).toEqual([
      ['pol', true],
      ['ger', false],
    ]);
    expect(removeVersion(values, 1).map((v) => [v.lang, v.isDefault])).toEqual([
      ['eng', true],
      ['ger', false],
    ]);
  });

  it('wants a deadline that is a real local time in the future, except the unchanged stored one', () => {
    const now = new Date(2030, 0, 10, 12, 0).getTime();
    const ok = [version('eng', { isDefault: true })];
    expect(validateJobForm(form(ok, '2030-01-10T12:01'), { now })).toEqual({});
    expect(validateJobForm(form(ok, '2030-01-10T12:00'), { now }).deadline).toBe('The deadline must be in the future');
    expect(validateJobForm(form(ok, '2030-02-30T12:00'), { now }).deadline).toBe('The date is not valid');
    expect(validateJobForm(form(ok, '2029-12-01T08:00'), { now, storedDeadline: '2029-12-01T08:00' })).toEqual({});
    changeI18nLanguage('pol');
    expect(validateJobForm(form(ok, '2020-01-01T00:00'), { now }).deadline).toBe('Termin musi przypadać w przyszłości');
  });
});

describe('the form and the API', () => {
  it('sends trimmed texts and the deadline as UTC ISO; an empty deadline is none', () => {
    const local = new Date(2031, 4, 1, 12, 30);
    const body = formToBody(form([version('eng', { title: '  Paint the fence ', isDefault: true }), version('pol')], '2031-05-01T12:30'));
    expect(body.deadline).toBe(local.toISOString());
    expect(body.versions[0]).toEqual({ lang: 'eng', title: 'Paint the fence', description: 'Two coats on a 20 m wooden fence.', isDefault: true });
    expect(formToBody(form([version('eng', { isDefault: true })])).deadline).toBeNull();
    // An unchanged stored deadline is left out (the server keeps it); a changed or cleared one is sent.
    const stored = '2020-01-01T10:00';
    expect(formToBody(form([version('eng', { isDefault: true })], stored), stored)).not.toHaveProperty('deadline');
    expect(formToBody(form([version('eng', { isDefault: true })], '2031-05-01T12:30'), stored).deadline).toBe(local.toISOString());
    expect(formToBody(form([version('eng', { isDefault: true })], ''), stored).deadline).toBeNull();
  });

  it('opens a stored job with its deadline in local time and its default version first', () => {
    const deadline = new Date(2031, 4, 1, 9, 5).toISOString();
    const values = jobToForm({ deadline, versions: [version('eng'), version('pol', { isDefault: true })] });
    expect(values.deadline).toBe('2031-05-01T09:05');
    expect(values.versions.map((v) => v.lang)).toEqual(['pol', 'eng']);
  });

  it('puts users only on the roles that changed', () => {
    const ada = { code: 'U_ada', name: 'Ada', surname: 'L' };
    const bob = { code: 'U_bob', name: 'Bob', surname: 'B' };
    expect(changedRoles({ 1: [ada], 2: [] }, { 1: [ada], 2: [] })).toEqual([]);
    expect(changedRoles({ 1: [ada], 2: [] }, { 1: [], 2: [bob] })).toEqual([1, 2]);
    expect(changedRoles({ 3: [ada, bob] }, { 3: [bob, ada] })).toEqual([3]);
    expect(changedRoles({}, { 4: [] })).toEqual([]);
  });
});
