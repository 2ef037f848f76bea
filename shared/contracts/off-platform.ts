/**
 * Finds what moves a deal off Parley: contact details (e-mail, phone, messenger handles), bank account numbers
 * and requests to pay outside the platform, in English and Polish. One module for the composer's warning (client)
 * and the message's mark (server), so both judge a text the same way.
 *
 * Cheap by construction: every pattern is compiled once, here; the phone and account patterns only run on texts
 * with enough digits, the phrase patterns on a lower-cased, diacritic-free copy made once per text.
 */

export type OffPlatformKind = 'email' | 'phone' | 'messenger' | 'bankAccount' | 'payment';

export const OFF_PLATFORM_KINDS: readonly OffPlatformKind[] = ['email', 'phone', 'messenger', 'bankAccount', 'payment'];

const EMAIL = /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/i;
/** "jan (at) gmail (dot) com", "jan małpa wp kropka pl" (run on the folded text). */
const EMAIL_SPELLED =
  /(?:\(at\)|\[at\]|\{at\}| at |\(malpa\)| malpa )\s*[a-z0-9-]+\s*(?:\.|\(dot\)|\[dot\]| dot |\(kropka\)| kropka )\s*(?:com|pl|net|org|eu|de|io|co|uk|info)\b/;
const EMAIL_MENTIONED = /\b(?:my|moj|moje)\s+(?:e-?mail|gmail|maila|adres(?: e-?mail)?)\s+(?:is|to|:)/;

/** A run of digits with the separators people put in phone numbers; judged by `looksLikePhone`. */
const PHONE_CANDIDATE = /(?:\+|\b00)?\(?\d[\d ().\-\u00a0]{6,20}\d/g;
const DIGIT = /\d/g;
/**
 * Numbers that are not phones, blanked before phones are looked for, so that a date, a time and an amount
 * side by side don't add up to nine digits: dates (12.03.2026, 2026-03-12), times (14:30), amounts with a
 * currency or unit ("1 200 zł", "$1,500", "15 %").
 */
const NOT_PHONES =
  /\b\d{1,4}[./-]\d{1,2}[./-]\d{1,4}\b|\b\d{1,2}:\d{2}(?::\d{2})?\b|[$€£]\s?\d[\d\s.,]*|\d[\d\s.,]*\s?(?:zl|pln|usd|eur|gbp|chf|%|km|kg|szt|pcs)\b|\d[\d\s.,]*\s?%/g;
/** Words before a number that make it an order, offer, invoice or reference number, not a phone. */
const REFERENCE_BEFORE =
  /(?:#|\b(?:order|offer|invoice|ref|reference|no|nr|id|zamowienie|zamowienia|oferta|oferty|faktura|faktury|numer zamowienia|sku|vat|nip|regon|krs|pesel)\.?:?)\s*$/;
const PHONE_WORD_BEFORE = /\b(?:tel|tel\.|phone|mobile|call|text|sms|zadzwon|dzwon|telefon|komorka|numer|nr tel|whatsapp)\W*$/;
/** A currency or unit after the number: a price or an amount. */
const AMOUNT_AFTER = /^\s*(?:zl|pln|usd|eur|gbp|chf|\$|€|£|%|km|kg|m2|m²|szt|pcs|x)\b|^\s*[%$€£]/;
const AMOUNT_BEFORE = /(?:[$€£]|\b(?:pln|usd|eur|gbp|zl))\s*$/;

/** IBAN (PL61 1090 1014 0000 0712 1981 2874) and a Polish account number (26 digits in groups). */
const IBAN = /\b[a-z]{2}\d{2}(?:[ -]?[a-z0-9]{4}){3,7}(?:[ -]?[a-z0-9]{1,4})?\b/;
const ACCOUNT_NUMBER = /\b\d{2}(?:[ -]?\d{4}){6}\b/;

const MESSENGER =
  /\b(?:whats\s?app|watsapp|whatsap|wa\.me|telegram|telegramie|t\.me\/|skype|skypie|viber|wechat|discord|snapchat|imessage|signal\s*[:@]|(?:on|via|na|przez|w|my|moj)\s+(?:signal|signalu|messenger|messengerze|insta|instagram|instagramie|fb|facebook|facebooku|line|teams)\b|(?:telegram|insta|ig|tg)\s*[:@]\s*@?\w+)/;

const PAYMENT_PHRASE_LIST: readonly RegExp[] = [
  // English
  /\bpay(?:ing)?\s+(?:me\s+|you\s+|us\s+)?(?:directly|direct|outside|off[- ]?(?:site|platform|parley)|in cash|cash)\b/,
  /\b(?:pay|payment|paid|send (?:the )?money|transfer)\s+(?:me\s+)?(?:via|by|through|with|on|using|to my|over)\s+(?:paypal|venmo|zelle|cash ?app|revolut|wise|western union|moneygram|crypto|bitcoin|btc|usdt|eth|gift ?cards?|bank transfer|wire)\b/,
  /\b(?:send|transfer|wire)\s+(?:the\s+)?(?:money|payment|funds|it|deposit)\s+(?:directly|straight|to my (?:bank|account|paypal|revolut|card))\b/,
  /\b(?:outside|off|around|bypass|avoid|skip)\s+(?:of\s+)?(?:parley|the (?:platform|site|app|website))\b/,
  /\boff[- ]platform\b/,
  /\b(?:avoid|save|skip|no|without|dodge)\s+(?:the\s+)?(?:platform\s+|parley\s+|site\s+|service\s+)?(?:fees?|commission)\b/,
  /\bmy (?:bank )?account (?:number|no\.?|details)\b/,
  /\b(?:paypal|venmo|revolut|cashapp)(?:\.me)?\s*[:@/]/,
  // Polish (folded: no diacritics)
  /\b(?:zaplac|zaplacic|zaplacisz|placisz|plac|wplac|przelej|przelac|przeslij|wyslij)\w*\s+(?:mi\s+|nam\s+)?(?:bezposrednio|poza|prosto|gotowka|na (?:moje |moj |prywatne )?(?:konto|numer|telefon|rachunek|paypal|revolut|blika?))\b/,
  /\b(?:platnosc|platnosci|zaplata|przelew)\w*\s+(?:bezposrednio|poza|na (?:moje |moj |prywatne )?(?:konto|rachunek))\b/,
  /\bprzelew\w*\s+na\s+(?:moje\s+|moj\s+|prywatne\s+)?(?:konto|rachunek)\b/,
  /\bblik\w*\s+(?:na\s+)?(?:numer|nr|telefon|moj)\b|\bna blika\b/,
  /\bpoza\s+(?:parley|platforma|platformy|serwisem|portalem|aplikacja|strona)\b/,
  /\bbez\s+(?:prowizji|posrednika|posrednictwa|platformy)\b|\bomin\w*\s+(?:prowizj|platform|parley)/,
  /\b(?:numer|nr)\s+(?:mojego\s+)?(?:konta|rachunku)\b/,
];
/** One pass over the text instead of one per phrase. */
const PAYMENT_PHRASES = new RegExp(PAYMENT_PHRASE_LIST.map((re) => `(?:${re.source})`).join('|'));

/** Lower case without Polish diacritics, so one pattern matches "zapłać" and "zaplac". */
const FOLD: Record<string, string> = { ą: 'a', ć: 'c', ę: 'e', ł: 'l', ń: 'n', ó: 'o', ś: 's', ź: 'z', ż: 'z' };
const DIACRITIC = /[ąćęłńóśźż]/g;
const fold = (text: string): string => text.toLowerCase().replace(DIACRITIC, (c) => FOLD[c]);

function looksLikePhone(folded: string, start: number, match: string): boolean {
  const digits = match.match(DIGIT)!.length;
  if (digits < 9 || digits > 15) return false;
  const before = folded.slice(Math.max(0, start - 24), start);
  const after = folded.slice(start + match.length, start + match.length + 6);
  if (AMOUNT_AFTER.test(after) || AMOUNT_BEFORE.test(before)) return false;
  if (REFERENCE_BEFORE.test(before) && !PHONE_WORD_BEFORE.test(before)) return false;
  // A number glued to letters (ABC-123456789, 123456789abc) is a code, not a phone.
  const prev = folded[start - 1];
  const next = folded[start + match.length];
  if ((prev && /[a-z_/-]/.test(prev)) || (next && /[a-z_/]/.test(next))) return false;
  return true;
}

function hasPhone(text: string): boolean {
  const folded = text.replace(NOT_PHONES, (m) => ' '.repeat(m.length));
  PHONE_CANDIDATE.lastIndex = 0;
  for (let m = PHONE_CANDIDATE.exec(folded); m; m = PHONE_CANDIDATE.exec(folded)) {
    if (looksLikePhone(folded, m.index, m[0])) return true;
  }
  return false;
}

/** Enough digits somewhere for a phone or account number (9), counted without a regex run over the text. */
function hasNineDigits(text: string): boolean {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57 && ++n >= 9) return true;
  }
  return false;
}

/** What in the text would take the deal off Parley, in the order of OFF_PLATFORM_KINDS; empty when nothing. */
export function detectOffPlatform(text: string): OffPlatformKind[] {
  const found: OffPlatformKind[] = [];
  const folded = fold(text);
  if ((folded.includes('@') && EMAIL.test(folded)) || EMAIL_SPELLED.test(folded) || EMAIL_MENTIONED.test(folded)) found.push('email');
  const digits = hasNineDigits(folded);
  if (digits && hasPhone(folded)) found.push('phone');
  if (MESSENGER.test(folded)) found.push('messenger');
  if (IBAN.test(folded) || (digits && ACCOUNT_NUMBER.test(folded))) found.push('bankAccount');
  if (PAYMENT_PHRASES.test(folded)) found.push('payment');
  // An account number also reads as a long digit run; it is reported as the account alone.
  if (found.includes('bankAccount') && found.includes('phone') && !hasPhone(folded.replace(ACCOUNT_NUMBER, ' ').replace(IBAN, ' '))) {
    found.splice(found.indexOf('phone'), 1);
  }
  return found;
}

export const isOffPlatform = (text: string): boolean => detectOffPlatform(text).length > 0;
