import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { JobName, NotifyOfferPayload } from '#shared/contracts/queues';
import { OutboxJobOwner, OutboxRow, UnneededRows } from '../outbox/outbox-job-owner';
import { OfferEmailQueries } from './offer-email.queries';
import { offerEmailTarget } from './offer-email-target';

/**
 * Records the e-mail about an offer move that waits for someone (offerEmailTarget), or a timer's reminder to
 * them (an 'offer.reminded' row: no actor, so always the party whose move it is), due EMAIL_OFFER_DELAY_MS
 * after the move or reminder: if they act (or the offer moves on) before then, the send finds it no longer due. Recorded at
 * once in Postgres rather than held as a delayed job only, so a Redis loss delays it but never loses it.
 *
 * It is the record job's outbox owner too: a move that waits for nobody (or for its own actor) gets no job.
 */
@Injectable()
export class OfferEmailRecorder implements OutboxJobOwner {
  readonly job = JobName.RecordOfferEmail;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queries: OfferEmailQueries,
  ) {}

  unneeded(rows: OutboxRow[]): Promise<UnneededRows> {
    const wanted = (row: OutboxRow) => !!row.payload.eventId && !!offerEmailTarget(row.payload as unknown as NotifyOfferPayload);
    return Promise.resolve({ rowIds: new Set(rows.filter((r) => !wanted(r)).map((r) => r.id)), afterDispatch: async () => undefined });
  }

  delayMs(): number {
    return 0;
  }

  retry(): { attempts: number; backoffMs: number } {
    return { attempts: this.config.EMAIL_ATTEMPTS, backoffMs: this.config.EMAIL_BACKOFF_MS };
  }

  /** The move's pending e-mail (recorded now or by an earlier run of the same job), or nothing to send. */
  async record(move: NotifyOfferPayload): Promise<{ id: string; dueAt: Date } | undefined> {
    const target = offerEmailTarget(move);
    if (!target || !move.eventId) return undefined;
    const reminder = move.reminder && move.reminderKey ? { key: move.reminderKey, days: move.reminderDays ?? 0 } : undefined;
    return this.queries.record({ eventId: move.eventId, offerId: move.offerId, reminder }, target.userId, target.kind, this.config.EMAIL_OFFER_DELAY_MS);
  }
}
