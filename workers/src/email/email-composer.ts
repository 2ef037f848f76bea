import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { signUnsubscribe } from '#shared/notifications/unsubscribe-token';
import { pushLang } from '#shared/push/push-content';
import { OfferEmailQueries } from './offer-email.queries';
import { offerEmail } from './offer-email-content';
import { EmailText, unreadEmail } from './unread-email-content';
import { EmailRow, UnreadEmailQueries } from './unread-email.queries';

export type Composed = { content: EmailText; headers: Record<string, string> } | { skip: 'setting-off' | 'read' | 'moved-on' };

/**
 * Re-reads what a recorded e-mail is about, just before an attempt, and writes it, or says why it is no longer
 * due: its kind switched off; unread messages all read, deleted or muted; an offer that moved on since (the
 * recipient, or anyone, made a move) or is gone. Every e-mail carries the one-click unsubscribe of its kind.
 */
@Injectable()
export class EmailComposer {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly unread: UnreadEmailQueries,
    private readonly offers: OfferEmailQueries,
  ) {}

  async compose(email: EmailRow): Promise<Composed> {
    if (!email.email_on) return { skip: 'setting-off' };
    const lang = pushLang(email.lang);
    const baseUrl = (this.config.PUBLIC_URL ?? `http://localhost:${this.config.PORT}`).replace(/\/$/, '');
    const token = signUnsubscribe(this.config.JWT_SECRET, email.user_id, email.kind, this.config.EMAIL_UNSUBSCRIBE_TTL_DAYS * 86_400_000);
    const unsubscribeUrl = `${baseUrl}/api/email/unsubscribe?token=${encodeURIComponent(token)}`;
    const headers = { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };

    if (email.kind === 'messages') {
      const chats = await this.unread.stillDue(email.user_id, email.covers);
      return chats.length ? { content: unreadEmail(lang, chats, baseUrl, unsubscribeUrl), headers } : { skip: 'read' };
    }
    const facts = await this.offers.facts(email.id);
    const content = facts?.current ? offerEmail(lang, email.kind, facts, baseUrl, unsubscribeUrl) : null;
    return content ? { content, headers } : { skip: 'moved-on' };
  }
}
