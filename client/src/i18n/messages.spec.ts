import { fieldOfRule, translateMessage, translateRule } from './messages';

describe('server messages', () => {
  it('translates known keys and never shows a raw unknown key', () => {
    expect(translateMessage('SHARED.USER.EMAIL_TAKEN')).toBe('This e-mail address is already registered');
    expect(translateMessage('SHARED.SOMETHING.NEW')).toBe('Something went wrong. Please try again.');
    expect(translateMessage(null)).toBe('Something went wrong. Please try again.');
  });

  it('names the field of a broken rule that has no text of its own', () => {
    expect(fieldOfRule('VALIDATION.PRICE.AMOUNT.MIN')).toBe('price amount');
    expect(translateRule('VALIDATION.EMAIL.IS_EMAIL')).toBe('Invalid value: email');
    expect(translateRule('VALIDATION.CUSTOM_CSS.IMPORT')).toBe('Custom CSS may not use @import');
  });
});
