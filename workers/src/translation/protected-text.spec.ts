import { joinTranslated, splitProtected } from './protected-text';

const sent = (text: string) =>
  splitProtected(text)
    .filter((p) => p.translate)
    .map((p) => p.text);
const kept = (text: string) =>
  splitProtected(text)
    .filter((p) => !p.translate)
    .map((p) => p.text.trim())
    .filter(Boolean);

describe('splitProtected', () => {
  it('sends only the words to an engine and keeps links, e-mail addresses, amounts, code and emoji as written', () => {
    const text = 'Mira https://ejemplo.com/a?b=1, escribe a ana@ejemplo.com: cuesta 20 € o $15.50 o 1.200,50 PLN y `npm start` 👍🏽🇵🇱';
    expect(kept(text)).toEqual(['https://ejemplo.com/a?b=1', 'ana@ejemplo.com', '20 €', '$15.50', '1.200,50 PLN', '`npm start`', '👍🏽🇵🇱']);
    expect(sent(text)).toEqual(['Mira', ', escribe a', ': cuesta', 'o', 'o', 'y']);
  });

  it('keeps fenced code whole and sends nothing for a text without words', () => {
    expect(sent('```\nconst x = 1;\n```')).toEqual([]);
    expect(sent('12:30 ✅ !!!')).toEqual([]);
    expect(kept('Hola\n```js\nlet casa = 1\n```\nadiós')).toEqual(['```js\nlet casa = 1\n```']);
  });

  it('puts the answers back in place, with the spaces around them as they were', () => {
    const pieces = splitProtected('  Hola https://a.example  amigo ');
    expect(joinTranslated(pieces, ['Hello', 'friend'])).toBe('  Hello https://a.example  friend ');
  });
});
