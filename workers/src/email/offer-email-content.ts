import { OfferStatus } from '#shared/contracts/offers';
import type { PushLang } from '#shared/push/push-content';
import { escapeHtml } from './email-html';
import type { OfferEmailKind } from './offer-email-target';
import type { OfferEmailFacts } from './offer-email.queries';
import type { EmailText } from './unread-email-content';

interface Wording {
  subject: string;
  lead: string;
}

type Fill = { job: string; other: string; price: string };
type ReminderFill = Fill & { days: string };

const LAPSING: readonly OfferStatus[] = [OfferStatus.Proposal, OfferStatus.FinalOffer, OfferStatus.CustomerApproved];

const WORDS = {
  eng: {
    moves: {
      [OfferStatus.FinalOffer]: (f: Fill) => ({
        subject: `${f.other} sent a final offer for “${f.job}”`,
        lead: `The offer (${f.price}) is waiting for your choice.`,
      }),
      [OfferStatus.CustomerApproved]: (f: Fill) => ({ subject: `${f.other} chose your offer for “${f.job}”`, lead: 'Confirm it to agree and start.' }),
      [OfferStatus.FinalizeRequested]: (f: Fill) => ({
        subject: `${f.other} asks you to finalise “${f.job}”`,
        lead: 'Approve the finalisation to go on to the payment.',
      }),
      [OfferStatus.PaymentPending]: (f: Fill) => ({ subject: `Payment due for “${f.job}”`, lead: `The offer is waiting for your payment of ${f.price}.` }),
      [OfferStatus.PaymentDeclared]: (f: Fill) => ({
        subject: `${f.other} says they paid for “${f.job}”`,
        lead: `Confirm the payment of ${f.price} once it has arrived.`,
      }),
    } as Partial<Record<OfferStatus, (f: Fill) => Wording>>,
    reminders: {
      ...Object.fromEntries(
        LAPSING.map((s) => [
          s,
          (f: ReminderFill) => ({
            subject: `Reminder: the offer for “${f.job}” expires in ${f.days}`,
            lead: 'It is waiting for your move; without one, it closes by itself.',
          }),
        ]),
      ),
      [OfferStatus.FinalizeRequested]: (f: ReminderFill) => ({
        subject: `Reminder: “${f.job}” will be accepted automatically in ${f.days}`,
        lead: 'Approve the finalisation, or answer it, before then.',
      }),
      [OfferStatus.PaymentPending]: (f: ReminderFill) => ({
        subject: `Reminder: the payment for “${f.job}” has been due for ${f.days}`,
        lead: `The offer is still waiting for your payment of ${f.price}.`,
      }),
    } as Partial<Record<OfferStatus, (f: ReminderFill) => Wording>>,
    days: (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`,
    someone: 'The other party',
    offer: (code: string) => `offer ${code}`,
    open: 'Open the offer',
    unsubscribe: { offers: 'Stop e-mails about offers', payments: 'Stop e-mails about payments' },
  },
  pol: {
    moves: {
      [OfferStatus.FinalOffer]: (f: Fill) => ({ subject: `Oferta końcowa od: ${f.other} – „${f.job}”`, lead: `Oferta (${f.price}) czeka na Twój wybór.` }),
      [OfferStatus.CustomerApproved]: (f: Fill) => ({
        subject: `Twoja oferta została wybrana – „${f.job}”`,
        lead: 'Potwierdź ją, aby dojść do porozumienia i zacząć.',
      }),
      [OfferStatus.FinalizeRequested]: (f: Fill) => ({
        subject: `Prośba o finalizację – „${f.job}”`,
        lead: 'Zatwierdź finalizację, aby przejść do płatności.',
      }),
      [OfferStatus.PaymentPending]: (f: Fill) => ({ subject: `Oczekuje na płatność – „${f.job}”`, lead: `Oferta czeka na Twoją płatność: ${f.price}.` }),
      [OfferStatus.PaymentDeclared]: (f: Fill) => ({
        subject: `Klient twierdzi, że zapłacił – „${f.job}”`,
        lead: `Potwierdź płatność (${f.price}), gdy dotrze.`,
      }),
    } as Partial<Record<OfferStatus, (f: Fill) => Wording>>,
    reminders: {
      ...Object.fromEntries(
        LAPSING.map((s) => [
          s,
          (f: ReminderFill) => ({
            subject: `Przypomnienie: oferta – „${f.job}” wygaśnie za ${f.days}`,
            lead: 'Czeka na Twój ruch; bez niego zamknie się sama.',
          }),
        ]),
      ),
      [OfferStatus.FinalizeRequested]: (f: ReminderFill) => ({
        subject: `Przypomnienie: „${f.job}” zostanie zaakceptowane automatycznie za ${f.days}`,
        lead: 'Zatwierdź finalizację lub odpowiedz na nią wcześniej.',
      }),
      [OfferStatus.PaymentPending]: (f: ReminderFill) => ({
        subject: `Przypomnienie: płatność za „${f.job}” czeka od ${f.days}`,
        lead: `Oferta wciąż czeka na Twoją płatność: ${f.price}.`,
      }),
    } as Partial<Record<OfferStatus, (f: ReminderFill) => Wording>>,
    days: (n: number) => `${n} ${n === 1 ? 'dzień' : 'dni'}`,
    someone: 'Druga strona',
    offer: (code: string) => `oferta ${code}`,
    open: 'Otwórz ofertę',
    unsubscribe: { offers: 'Nie wysyłaj mi e-maili o ofertach', payments: 'Nie wysyłaj mi e-maili o płatnościach' },
  },
} as const;

/** The URL of the offer itself, where the recipient makes their move. */
export const offerUrl = (baseUrl: string, f: Pick<OfferEmailFacts, 'job_code' | 'offer_code'>): string =>
  `${baseUrl}/jobs/${encodeURIComponent(f.job_code)}/offers/${encodeURIComponent(f.offer_code)}`;

/**
 * The e-mail about an offer move that waits for the recipient (or a payment due), or a timer's reminder of it
 * (facts.reminder_days set: the days left before the wait lapses, or the days a payment has been due), in their language, as plain
 * text and HTML, with a link straight to the offer. Null for a status nobody is e-mailed about.
 */
export function offerEmail(lang: PushLang, kind: OfferEmailKind, facts: OfferEmailFacts, baseUrl: string, unsubscribeUrl: string): EmailText | null {
  const w = WORDS[lang];
  const fill: Fill = {
    job: facts.job_title?.trim() || w.offer(facts.offer_code),
    other: facts.other ?? w.someone,
    price: facts.price_amount && facts.price_currency ? `${facts.price_amount} ${facts.price_currency}` : '—',
  };
  const status = facts.status as OfferStatus;
  const reminder = facts.reminder_days === null ? undefined : w.reminders[status];
  const move = w.moves[status];
  const wording = reminder ? reminder({ ...fill, days: w.days(facts.reminder_days!) }) : facts.reminder_days === null && move ? move(fill) : null;
  if (!wording) return null;
  const { subject, lead } = wording;
  const link = offerUrl(baseUrl, facts);
  const text = [subject, '', lead, '', `${w.open}: ${link}`, '', `${w.unsubscribe[kind]}: ${unsubscribeUrl}`].join('\n');
  const html = `<!doctype html><html lang="${lang === 'pol' ? 'pl' : 'en'}"><body style="font-family:sans-serif">
<h3>${escapeHtml(subject)}</h3>
<p>${escapeHtml(lead)}</p>
<p><a href="${escapeHtml(link)}">${escapeHtml(w.open)}</a></p>
<hr><p><small><a href="${escapeHtml(unsubscribeUrl)}">${escapeHtml(w.unsubscribe[kind])}</a></small></p>
</body></html>`;
  return { subject, text, html };
}
