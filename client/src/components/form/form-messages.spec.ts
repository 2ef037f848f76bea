import { changeI18nLanguage } from '@/i18n/i18n';
import { combine, rules, visibleError } from './form-messages';

afterEach(() => changeI18nLanguage('eng'));

describe('field error visibility', () => {
  it('shows an error only when the field is invalid and dirty or touched', () => {
    expect(visibleError({ error: 'x', dirty: false, touched: false })).toBeUndefined();
    expect(visibleError({ error: 'x', dirty: true, touched: false })).toBe('x');
    expect(visibleError({ error: 'x', dirty: false, touched: true })).toBe('x');
    expect(visibleError({ error: null, dirty: true, touched: true })).toBeUndefined();
  });
});

describe('field messages', () => {
  const validate = combine(rules.required(), rules.email());
  const title = combine(rules.required(), rules.minLength(6));

  it('answers in English', () => {
    expect(validate('')).toBe('The field is required');
    expect(validate('   ')).toBe('The field is required');
    expect(validate('a@b')).toBe('The e-mail address is invalid');
    expect(validate('a@b.pl')).toBeNull();
    expect(title('abc')).toBe('The field should contain at least 6 characters');
    expect(title('abcdef')).toBeNull();
  });

  it('answers in Polish with the spec messages', () => {
    changeI18nLanguage('pol');
    expect(validate('')).toBe('Pole jest wymagane');
    expect(validate('nope')).toBe('Adres e-mail jest nieprawidłowy');
    expect(title('abc')).toBe('Pole powinno zawierać minimum 6 znaków');
    expect(rules.minLength(2)('a')).toBe('Pole powinno zawierać minimum 2 znaki');
  });
});
