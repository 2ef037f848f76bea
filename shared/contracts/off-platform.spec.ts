import { detectOffPlatform, OffPlatformKind } from './off-platform';

const flagged: [string, OffPlatformKind][] = [
  // e-mail
  ['Send the drafts to jan.kowalski@gmail.com and I will look tonight', 'email'],
  ['Napisz na anna_nowak92@wp.pl, tam szybciej odpowiadam', 'email'],
  ['my address is tom.baker (at) outlook (dot) com', 'email'],
  ['pisz: kasia [at] onet [dot] pl', 'email'],
  ['adres: marek małpa interia kropka pl', 'email'],
  ['My email is the same as my username, just add gmail', 'email'],
  // phone
  ['Call me on +48 601 234 567 after 6pm', 'phone'],
  ['Mój numer: 601-234-567, dzwoń śmiało', 'phone'],
  ['zadzwoń 601234567', 'phone'],
  ['You can reach me at (555) 123-4567 any time', 'phone'],
  ['UK mobile 07700 900123', 'phone'],
  ['tel. (22) 628 12 34 w godzinach pracy', 'phone'],
  ['0048 512 345 678', 'phone'],
  ['text me: 555.123.4567', 'phone'],
  // messengers
  ['Let us move to WhatsApp, easier to send photos', 'messenger'],
  ['Napisz do mnie na whatsappie albo telegramie', 'messenger'],
  ['my telegram: @design_pro_pl', 'messenger'],
  ['find me on Signal, same name', 'messenger'],
  ['add me on skype live:jan.kowalski', 'messenger'],
  ['pisz na messengerze, tu rzadko zaglądam', 'messenger'],
  ['wa.me/48601234567', 'messenger'],
  ['https://t.me/janek_dev', 'messenger'],
  // bank accounts
  ['IBAN: PL61 1090 1014 0000 0712 1981 2874', 'bankAccount'],
  ['konto 61 1090 1014 0000 0712 1981 2874', 'bankAccount'],
  ['DE89370400440532013000 is my account', 'bankAccount'],
  // paying outside Parley
  ['If you pay me directly I can knock 10% off', 'payment'],
  ["Let's do it outside Parley, we both save the fees", 'payment'],
  ['Can you pay via PayPal instead? Friends and family please', 'payment'],
  ['just send the money straight to my bank', 'payment'],
  ['we can avoid the platform fee if you wire it', 'payment'],
  ['Zapłać mi bezpośrednio, bez prowizji wyjdzie taniej', 'payment'],
  ['zaplac mi bezposrednio to dam rabat', 'payment'],
  ['Wolę przelew na konto, podam numer', 'payment'],
  ['Zrób BLIK na numer, tak będzie najszybciej', 'payment'],
  ['Prześlij na blika i zaczynam od jutra', 'payment'],
  ['Możemy się rozliczyć poza platformą', 'payment'],
  ['Podeślę numer konta na priv', 'payment'],
];

const clean: string[] = [
  // prices
  'The price is 1 200 zł including VAT',
  'Cena: 12 500,00 PLN brutto',
  'Budget up to $1,500, negotiable',
  'I can do it for €2.400,50',
  'Łącznie 1 250 000 000 zł? To chyba pomyłka',
  'Total 3 x 450 zł = 1 350 zł',
  // dates and times
  'Deadline 12.03.2026, I will deliver on 2026-03-10',
  'Spotkanie 12.03.2026 14:30-16:00, pasuje?',
  'Available 09:00–17:00, Mon–Fri, from 01/04/2026',
  'Termin: 15.04.2026 r. godz. 10:00, drugi termin 22.04.2026 r.',
  // order, offer, invoice numbers and other codes
  'Order #123456789 arrived damaged',
  'Zamówienie nr 2026/03/000123 już wysłane',
  'Faktura nr FV/2026/03/1234 w załączniku',
  'Offer 123456789 is the one I mean',
  'Tracking: JJD000030123456789',
  'NIP 525-000-12-34 widnieje na fakturze',
  'SKU ABC-123456789 is out of stock',
  // postcodes, percentages, measurements
  'Dostawa na 00-950 Warszawa, ul. Marszałkowska 10',
  'Discount 15% on orders above 200 zł',
  'The room is 4.5 x 3.2 m, about 14.4 m2',
  'Wzrost o 12,5 % rok do roku',
  'Version 2.10.3 fixes the 404 on /api/v1/items',
  // everyday words that contain trigger words
  'That is a good signal that the client is happy',
  'I will pay when the work is done, through Parley of course',
  'Zapłacę po odbiorze, przez Parley jak zawsze',
  'See you at the meeting at noon',
  'Please keep all communication here on the platform',
  'Phone case design: 3 variants, 2 revisions',
  'Dostarczę pliki w formacie PDF i PNG',
];

describe('detectOffPlatform', () => {
  it.each(flagged)('flags %j as %s', (text, kind) => {
    expect(detectOffPlatform(text)).toContain(kind);
  });

  it.each(clean)('leaves %j unflagged', (text) => {
    expect(detectOffPlatform(text)).toEqual([]);
  });

  it('names every kind a text carries, in a fixed order', () => {
    expect(detectOffPlatform('Pay me directly: +48 601 234 567 or jan@x.pl, WhatsApp too')).toEqual(['email', 'phone', 'messenger', 'payment']);
  });

  it('reports an account number as an account, not also a phone', () => {
    expect(detectOffPlatform('61 1090 1014 0000 0712 1981 2874')).toEqual(['bankAccount']);
  });

  it('is empty for empty text', () => {
    expect(detectOffPlatform('')).toEqual([]);
  });
});
