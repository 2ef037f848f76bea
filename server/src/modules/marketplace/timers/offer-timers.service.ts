import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { findTransition, OFFER_REMINDER_MESSAGES, OfferNote, OfferStatus, offerTimerSteps, OfferTimerDue } from '#shared/contracts/offers';
import { ChatGroupsRepository } from '../../chat/chat-groups.repository';
import { ChatMessagesService } from '../../chat/chat-messages.service';
import { offerTerms } from '../offer.mapper';
import { OfferTransitionsService } from '../offer-transitions.service';
import { MoveRecord, OfferRow, OffersRepository } from '../offers.repository';
import { resolveTimerSettings } from '#shared/offers/timer-settings';

export type TimerOutcome = 'applied' | 'stale';

/**
 * Applies a due offer timer (the worker hands it over, see OfferTimerDueListener), once: in one transaction the
 * step is claimed (offer_timer_fired; the offer must still be in the version and status the timer was set for),
 * then a lapse moves the offer along its transition-table row like any move (event log, outbox row: pushes and
 * the next timer) and a reminder writes its outbox row (the push and e-mail to the party whose move it is, and
 * the next timer). After commit, like a person's move: the note in the offer's chat, authored by nobody, and for a lapse
 * `offer:status` to both parties.
 */
@Injectable()
export class OfferTimersService {
  private readonly logger = new Logger(OfferTimersService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly offers: OffersRepository,
    private readonly transitions: OfferTransitionsService,
    private readonly groups: ChatGroupsRepository,
    private readonly messages: ChatMessagesService,
  ) {}

  async apply(due: OfferTimerDue): Promise<TimerOutcome> {
    const done = await this.db.transaction(async (tx) => {
      const expected = { version: due.version, status: due.status };
      if (!(await this.offers.claimTimerStep(tx, due.offerId, expected, due.key))) return null;
      const code: { code: string }[] = await tx.query(`SELECT code FROM job_offer WHERE id = $1`, [due.offerId]);
      const offer = (await this.offers.findByCode(code[0].code, null, tx))!;
      // The settings may have changed since the timer was set: a step they no longer have does nothing.
      const steps = offerTimerSteps(offer.status, resolveTimerSettings(offer.offer_timers));
      const step = steps.find((s) => s.key === due.key);
      if (!step) return null;
      if (step.kind === 'remind') {
        // Before a lapse: the days left; a payment due (no lapse): the days it has been due.
        const lapse = steps.find((s) => s.kind === 'lapse');
        await this.offers.recordReminder(tx, offer, offer.status, { key: step.key, days: lapse ? lapse.days - step.days : step.days });
        return { offer, reminder: offer.status === OfferStatus.PaymentPending ? OFFER_REMINDER_MESSAGES.payment : OFFER_REMINDER_MESSAGES.lapse };
      }
      const transition = findTransition(offer.status, step.call!)!;
      if (!(await this.offers.move(tx, offer.id, offer, transition.to))) return null;
      const move: MoveRecord = { offer, from: offer.status, to: transition.to, call: step.call!, actorId: null };
      await this.offers.record(tx, move);
      move.terms = offerTerms((await this.offers.findByCode(offer.code, null, tx))!);
      return { offer, move };
    });
    if (!done) return 'stale';
    if (done.move) await this.transitions.announce(null, [done.move]);
    else await this.postNote(done.offer, done.reminder!);
    return 'applied';
  }

  private async postNote(offer: OfferRow, note: OfferNote): Promise<void> {
    try {
      const group = offer.group_code ? await this.groups.findByCode(offer.group_code) : null;
      if (group) await this.messages.postOfferNote(group, note.type, note.text, null, { status: offer.status });
    } catch (err) {
      // The reminder is committed (its push goes out); a lost chat note must not make the timer fire again.
      this.logger.error({ err, offer: offer.code }, 'offer reminder note failed');
    }
  }
}
