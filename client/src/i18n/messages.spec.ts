import { OFFER_NOTE_TEXTS } from '../../../shared/contracts/offers';
import { i18n } from './i18n';
import { OFFER_NOTE_KEYS, REVIEW_KEYS, SERVER_MESSAGE_KEYS, fieldOfRule, translateMessage, translateRule } from './messages';

declare const __dirname: string;

interface Fs {
  readdirSync(dir: string, options: { withFileTypes: true }): { name: string; isDirectory(): boolean }[];
  readFileSync(path: string, encoding: 'utf8'): string;
}
const fs = jest.requireActual('fs') as Fs;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sources(path);
    return /\.ts$/.test(entry.name) && !/\.spec\.ts$/.test(entry.name) ? [path] : [];
  });
}

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

describe('marketplace keys', () => {
  const MARKETPLACE = `${__dirname}/../../../server/src/modules/marketplace`;
  const CONTRACT = `${__dirname}/../../../shared/contracts/offers.ts`;
  // Literal keys in the marketplace's code: its errors, offer notes, job roles and its own validation rules.
  const KEY = /'((?:JOB_OFFER|JOB|VALIDATION\.(?:IDEMPOTENCY_KEY|VERSIONS|DEADLINE|PRICE))\.[A-Z0-9_.]*[A-Z0-9_])'/g;
  const serverKeys = [...new Set([...sources(MARKETPLACE), CONTRACT].flatMap((file) => [...fs.readFileSync(file, 'utf8').matchAll(KEY)].map((m) => m[1])))];

  it('knows every key the marketplace answers with or posts, and every offer note', () => {
    expect(serverKeys.length).toBeGreaterThan(30);
    expect(serverKeys.filter((key) => !(SERVER_MESSAGE_KEYS as readonly string[]).includes(key))).toEqual([]);
    expect([...OFFER_NOTE_KEYS].sort()).toEqual([...OFFER_NOTE_TEXTS].sort());
    expect(serverKeys.filter((key) => key.startsWith('JOB_OFFER.MESSAGE.') && !(OFFER_NOTE_KEYS as readonly string[]).includes(key))).toEqual([]);
  });

  it('translates them in English and Polish', async () => {
    expect(translateMessage('JOB_OFFER.CHANGED_MEANWHILE')).toBe('The offer was changed meanwhile. Reload it and try again.');
    expect(translateRule('VALIDATION.PRICE.AMOUNT.IS_POSITIVE')).toBe('The price must be more than 0');
    expect(translateRule('VALIDATION.IDEMPOTENCY_KEY.REUSED')).toBe('This request was already used for something else');
    expect(translateMessage('JOB_OFFER.MESSAGE.PAID')).toBe('The customer paid');
    await i18n.changeLanguage('pl');
    try {
      expect(translateMessage('JOB_OFFER.MESSAGE.PAID')).toBe('Klient zapłacił');
      expect(translateRule('VALIDATION.PRICE.AMOUNT.IS_POSITIVE')).toBe('Cena musi być większa od 0');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});

describe('review keys', () => {
  const REVIEWS = `${__dirname}/../../../server/src/modules/reviews`;
  const KEY = /'(REVIEW\.[A-Z0-9_.]*[A-Z0-9_])'/g;
  const serverKeys = [...new Set(sources(REVIEWS).flatMap((file) => [...fs.readFileSync(file, 'utf8').matchAll(KEY)].map((m) => m[1])))];

  it('knows every key the reviews answer with or post', () => {
    expect(serverKeys.length).toBeGreaterThan(8);
    expect(serverKeys.filter((key) => !(REVIEW_KEYS as readonly string[]).includes(key))).toEqual([]);
  });

  it('translates the publication note and the refusals in English and Polish', async () => {
    expect(translateMessage('REVIEW.MESSAGE.PUBLISHED')).toBe('The reviews of this deal were published');
    expect(translateRule('VALIDATION.RATING.MAX')).toBe('Choose at most 5 stars');
    await i18n.changeLanguage('pl');
    try {
      expect(translateMessage('REVIEW.ALREADY_WRITTEN')).toBe('Ta transakcja ma już twoją opinię');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
