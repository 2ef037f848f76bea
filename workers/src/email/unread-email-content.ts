import type { PushLang } from '#shared/push/push-content';
import { escapeHtml } from './email-html';
import type { DueChat } from './unread-email.queries';

export interface EmailText {
  subject: string;
  text: string;
  html: string;
}

const WORDS = {
  eng: {
    subject: (n: number) => (n === 1 ? 'You have unread messages in 1 chat' : `You have unread messages in ${n} chats`),
    intro: 'These messages are waiting for you on Parley:',
    unread: (n: number) => (n === 1 ? '1 unread message' : `${n} unread messages`),
    chat: 'Chat',
    open: 'Open the chat',
    unsubscribe: 'Stop e-mails about new messages',
  },
  pol: {
    subject: (n: number) => (n === 1 ? 'Masz nieprzeczytane wiadomości w 1 czacie' : `Masz nieprzeczytane wiadomości w ${n} czatach`),
    intro: 'Te wiadomości czekają na Ciebie w Parley:',
    unread: (n: number) =>
      n === 1
        ? '1 nieprzeczytana wiadomość'
        : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14)
          ? `${n} nieprzeczytane wiadomości`
          : `${n} nieprzeczytanych wiadomości`,
    chat: 'Czat',
    open: 'Otwórz czat',
    unsubscribe: 'Nie wysyłaj mi e-maili o nowych wiadomościach',
  },
} as const;

const clip = (s: string, max = 300) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** The unread-messages e-mail in the recipient's language, as plain text and HTML, every chat with a link to it. */
export function unreadEmail(lang: PushLang, chats: DueChat[], baseUrl: string, unsubscribeUrl: string): EmailText {
  const w = WORDS[lang];
  const link = (c: DueChat) => `${baseUrl}/messages/${encodeURIComponent(c.group_code)}`;
  const title = (c: DueChat) => c.group_name ?? c.latest[0]?.author ?? w.chat;
  const text = [
    w.intro,
    '',
    ...chats.flatMap((c) => [
      `${title(c)} (${w.unread(c.unread)})`,
      ...c.latest.map((m) => `  ${m.author ? `${m.author}: ` : ''}${clip(m.text)}`),
      `  ${w.open}: ${link(c)}`,
      '',
    ]),
    `${w.unsubscribe}: ${unsubscribeUrl}`,
  ].join('\n');
  const html = `<!doctype html><html lang="${lang === 'pol' ? 'pl' : 'en'}"><body style="font-family:sans-serif">
<p>${escapeHtml(w.intro)}</p>
${chats
  .map(
    (c) => `<h3 style="margin-bottom:4px">${escapeHtml(title(c))} <small>(${escapeHtml(w.unread(c.unread))})</small></h3>
<ul>${c.latest.map((m) => `<li>${m.author ? `<b>${escapeHtml(m.author)}</b>: ` : ''}${escapeHtml(clip(m.text))}</li>`).join('')}</ul>
<p><a href="${escapeHtml(link(c))}">${escapeHtml(w.open)}</a></p>`,
  )
  .join('\n')}
<hr><p><small><a href="${escapeHtml(unsubscribeUrl)}">${escapeHtml(w.unsubscribe)}</a></small></p>
</body></html>`;
  return { subject: w.subject(chats.length), text, html };
}
