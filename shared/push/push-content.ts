import { createHash } from 'node:crypto';
import { ChatMessageType } from '../contracts/chat';
import { OfferStatus } from '../contracts/offers';
import { PushContent, PushKind } from '../contracts/queues';

/**
 * RFC 8291 aes128gcm in one 4096-byte record: 86 header bytes, a 16-byte tag and the 1-byte padding delimiter
 * leave 3,993 bytes of plaintext. web-push does not check it; we trim the body until the JSON fits.
 */
export const MAX_PUSH_PLAINTEXT = 3993;

export type PushLang = 'eng' | 'pol';

/** English and Polish texts; every other language falls back to English. */
const TEXTS = {
  eng: {
    newMessage: 'New message',
    inGroup: '{{name}} in {{group}}',
    attachment: 'Sent an attachment',
    systemMessage: 'New activity in the chat',
    offerTitle: 'Offer updated',
    offerBody: 'Offer {{offer}} is now: {{status}}',
    paymentRequestedTitle: 'Payment requested',
    paymentRequestedBody: 'Offer {{offer}} is waiting for your payment',
    paymentDeclaredTitle: 'The customer says they paid',
    paymentDeclaredBody: 'Confirm the payment for offer {{offer}} once it has arrived',
    paymentReceivedTitle: 'Payment received',
    paymentReceivedBody: 'The payment for offer {{offer}} has arrived',
    reminderTitle: 'Waiting for you',
    reminderBody: 'Offer {{offer}} is waiting for your move: {{status}}',
    paymentReminderBody: 'The payment for offer {{offer}} is still due',
    status: {
      [OfferStatus.Initial]: 'Initial',
      [OfferStatus.Proposal]: 'Proposal',
      [OfferStatus.FinalOffer]: 'Final offer',
      [OfferStatus.CustomerApproved]: 'Approved by the customer',
      [OfferStatus.Agreed]: 'Agreed',
      [OfferStatus.FinalizeRequested]: 'Finalisation requested',
      [OfferStatus.PaymentPending]: 'Payment pending',
      [OfferStatus.PaymentDeclared]: 'The customer says they paid',
      [OfferStatus.Closed]: 'Closed',
    } as Record<OfferStatus, string>,
  },
  pol: {
    newMessage: 'Nowa wiadomość',
    inGroup: '{{name}} w {{group}}',
    attachment: 'Wysłano załącznik',
    systemMessage: 'Nowa aktywność w czacie',
    offerTitle: 'Zmiana oferty',
    offerBody: 'Oferta {{offer}} ma teraz status: {{status}}',
    paymentRequestedTitle: 'Prośba o płatność',
    paymentRequestedBody: 'Oferta {{offer}} czeka na Twoją płatność',
    paymentDeclaredTitle: 'Klient twierdzi, że zapłacił',
    paymentDeclaredBody: 'Potwierdź płatność za ofertę {{offer}}, gdy dotrze',
    paymentReceivedTitle: 'Otrzymano płatność',
    paymentReceivedBody: 'Płatność za ofertę {{offer}} dotarła',
    reminderTitle: 'Czeka na Ciebie',
    reminderBody: 'Oferta {{offer}} czeka na Twój ruch: {{status}}',
    paymentReminderBody: 'Płatność za ofertę {{offer}} wciąż czeka',
    status: {
      [OfferStatus.Initial]: 'Początkowa',
      [OfferStatus.Proposal]: 'Propozycja',
      [OfferStatus.FinalOffer]: 'Oferta końcowa',
      [OfferStatus.CustomerApproved]: 'Zaakceptowana przez klienta',
      [OfferStatus.Agreed]: 'Uzgodniona',
      [OfferStatus.FinalizeRequested]: 'Prośba o finalizację',
      [OfferStatus.PaymentPending]: 'Oczekuje na płatność',
      [OfferStatus.PaymentDeclared]: 'Klient twierdzi, że zapłacił',
      [OfferStatus.Closed]: 'Zamknięta',
    } as Record<OfferStatus, string>,
  },
};

export function pushLang(userLang: string | null | undefined): PushLang {
  const l = (userLang ?? '').toLowerCase();
  return l === 'pol' || l === 'pl' || l.startsWith('pl-') ? 'pol' : 'eng';
}

const fill = (template: string, values: Record<string, string>) => template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => values[k] ?? '');

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** The JSON the service worker receives, trimmed (body first, then title) so it stays within MAX_PUSH_PLAINTEXT. */
export function encodePushContent(content: PushContent, max = MAX_PUSH_PLAINTEXT): string {
  let json = JSON.stringify(content);
  if (bytes(json) <= max) return json;
  const fitField = (c: PushContent, field: 'body' | 'title'): PushContent => {
    const chars = Array.from(c[field]);
    // Binary search on code points: the longest prefix (plus an ellipsis) whose JSON fits.
    let lo = 0;
    let hi = chars.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (bytes(JSON.stringify({ ...c, [field]: chars.slice(0, mid).join('') + '…' })) <= max) lo = mid;
      else hi = mid - 1;
    }
    return { ...c, [field]: lo > 0 ? chars.slice(0, lo).join('') + '…' : '' };
  };
  let trimmed = fitField(content, 'body');
  json = JSON.stringify(trimmed);
  if (bytes(json) > max) {
    trimmed = fitField(trimmed, 'title');
    json = JSON.stringify(trimmed);
  }
  return json;
}

/**
 * RFC 8030 Topic: at most 32 characters of the URL-safe base64 alphabet. Our codes (16 base64url characters)
 * qualify as they are; anything else becomes a 32-character hash of itself, so collapsing still works.
 */
export function pushTopic(key: string): string {
  if (/^[A-Za-z0-9_-]{1,32}$/.test(key)) return key;
  return createHash('sha256').update(key).digest('base64url').slice(0, 32);
}

export interface MessagePushInput {
  lang: PushLang;
  groupCode: string;
  groupName: string | null;
  participantCount: number;
  senderName: string | null;
  messageType: number;
  text: string;
  hasFiles: boolean;
}

/** A chat message: the sender (and the group's name in a multi-person chat) as title, the text as body. */
export function messagePush(input: MessagePushInput): PushContent {
  const t = TEXTS[input.lang];
  const name = input.senderName?.trim() || t.newMessage;
  const title = input.participantCount > 2 && input.groupName?.trim() ? fill(t.inGroup, { name, group: input.groupName.trim() }) : name;
  let body: string;
  if (input.messageType !== ChatMessageType.Text) body = t.systemMessage;
  else if (input.text.trim()) body = input.text.replace(/\s+/g, ' ').trim();
  else body = input.hasFiles ? t.attachment : t.newMessage;
  return { title, body, url: `/messages/${encodeURIComponent(input.groupCode)}`, tag: input.groupCode };
}

export interface OfferPushInput {
  lang: PushLang;
  kind: Exclude<PushKind, 'message'>;
  offerCode: string;
  jobCode: string;
  status: OfferStatus;
}

export function offerPush(input: OfferPushInput): PushContent {
  const t = TEXTS[input.lang];
  const offer = input.offerCode;
  const offerUrl = `/jobs/${encodeURIComponent(input.jobCode)}/offers/${encodeURIComponent(input.offerCode)}`;
  switch (input.kind) {
    case 'payment-requested':
      return { title: t.paymentRequestedTitle, body: fill(t.paymentRequestedBody, { offer }), url: '/jobs/payments', tag: offer };
    case 'payment-declared':
      return { title: t.paymentDeclaredTitle, body: fill(t.paymentDeclaredBody, { offer }), url: offerUrl, tag: offer };
    case 'payment-received':
      return { title: t.paymentReceivedTitle, body: fill(t.paymentReceivedBody, { offer }), url: offerUrl, tag: offer };
    case 'offer-reminder': {
      const body = input.status === OfferStatus.PaymentPending ? t.paymentReminderBody : t.reminderBody;
      return { title: t.reminderTitle, body: fill(body, { offer, status: t.status[input.status] ?? String(input.status) }), url: offerUrl, tag: offer };
    }
    default:
      return {
        title: t.offerTitle,
        body: fill(t.offerBody, { offer, status: t.status[input.status] ?? String(input.status) }),
        url: offerUrl,
        tag: offer,
      };
  }
}
