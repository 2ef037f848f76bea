import { checkVersions } from './job-rules';

const v = (lang: string, isDefault?: boolean) => ({ lang, title: ' A title ', description: 'A description long enough', isDefault });

describe('job translation rules', () => {
  it('makes the first version the default when none is marked, and trims texts', () => {
    expect(checkVersions([v('eng'), v('pol')])).toEqual([
      { lang: 'eng', title: 'A title', description: 'A description long enough', isDefault: true },
      { lang: 'pol', title: 'A title', description: 'A description long enough', isDefault: false },
    ]);
    expect(checkVersions([v('eng'), v('pol', true)]).map((x) => x.isDefault)).toEqual([false, true]);
  });

  it('refuses a repeated language with its value and count, and two defaults', () => {
    expect(() => checkVersions([v('eng'), v('pol'), v('eng'), v('eng')])).toThrow(
      expect.objectContaining({
        response: {
          code: 422,
          message: 'SHARED.ERROR.VALIDATION',
          data: { brokenRules: ['VALIDATION.VERSIONS.UNIQUE_TRANSLATION'], uniqueTranslation: { value: 'eng', count: 3 } },
        },
      }),
    );
    expect(() => checkVersions([v('eng', true), v('pol', true)])).toThrow(
      expect.objectContaining({ response: expect.objectContaining({ data: { brokenRules: ['VALIDATION.VERSIONS.ONE_DEFAULT'] } }) }),
    );
  });
});
