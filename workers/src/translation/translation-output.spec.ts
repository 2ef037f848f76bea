import { TranslationFailure } from './translation-engine';
import { checkedTranslation } from './translation-output';

describe('checkedTranslation', () => {
  it('takes text of about the source length', () => {
    expect(checkedTranslation('Hola mundo', ' Hello world ')).toBe('Hello world');
  });

  it.each([
    ['an empty answer', 'Hola', '  '],
    ['an HTML page', 'Hola', '<!DOCTYPE html><html><body>502</body></html>'],
    ['an answer far longer than its source', 'Hola', 'x'.repeat(200)],
  ])('refuses %s', (_what, source, answer) => {
    expect(() => checkedTranslation(source, answer)).toThrow(TranslationFailure);
  });

  it('lets markup through that its source had', () => {
    expect(checkedTranslation('usa <div> aquí', 'use <div> here')).toBe('use <div> here');
  });
});
