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
 * The e-mail about an offer move that waits for the recipient (or a payment due), in their language, as plain
 * text and HTML, with a link straight to the offer. Null for a status nobody is e-mailed about.
 */
export function offerEmail(lang: PushLang, kind: OfferEmailKind, facts: OfferEmailFacts, baseUrl: string, unsubscribeUrl: string): EmailText | null {
  const w = WORDS[lang];
  const wording = w.moves[facts.status as OfferStatus];
  if (!wording) return null;
  const { subject, lead } = wording({
    job: facts.job_title?.trim() || w.offer(facts.offer_code),
    other: facts.other ?? w.someone,
    price: facts.price_amount && facts.price_currency ? `${facts.price_amount} ${facts.price_currency}` : '—',
  });
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
