import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser } from '#shared/contracts/auth';
import type { OfferNoteData } from '#shared/contracts/events';
import { actorOf, findTransition, OFFER_TRANSITIONS, OfferCall, offerNoteOf, SystemCall } from '#shared/contracts/offers';
import { AppError, forbidden, notFound } from '../../common/errors';
import { DomainEvents } from '../../common/events/domain-events';
import { ChatGroupsRepository } from '../chat/chat-groups.repository';
import { ChatMessagesService } from '../chat/chat-messages.service';
import { ChooseOfferDto, OfferDto, PayOfferDto, PayResultDto, UpdateOfferDto } from './dto/offer.dto';
import { IdempotencyStore } from './idempotency.store';
import { checkDeadline } from './job-rules';
import { partyOf, seesOffer } from './marketplace-access';
import { mapOffer, mapPayment, offerTerms } from './offer.mapper';
import { MoveRecord, OfferRow, OffersRepository } from './offers.repository';
import { PaymentEntity } from './payments/payment.entity';
import { PaymentsService } from './payments/payments.service';

/** What a request to move an offer carries besides the offer. */
export interface MoveRequest {
  jobCode: string;
  offerCode: string;
  lang?: string;
  idempotencyKey?: string;
}

type PartyCall = Exclude<OfferCall, SystemCall>;

const paid = (offer: OfferRow, payment?: PaymentEntity): PayResultDto => ({ offer: mapOffer(offer), payment: mapPayment(payment!) });

const SERIALIZATION_FAILURE = '40001';
const DEADLOCK_DETECTED = '40P01';

/** The statuses `choose` with allowForMoreOffers false closes, straight from the transition table. */
const CLOSED_WHEN_ANOTHER_IS_CHOSEN = OFFER_TRANSITIONS.filter((t) => t.call === 'closeOthers').map((t) => t.from);

interface Hooks {
  /** locks to take before the offer's row (always job before offer, so concurrent moves never wait in a circle) */
  before?: (tx: EntityManager, offer: OfferRow) => Promise<void>;
  /** price and deadline the move sets */
  fields?: Parameters<OffersRepository['move']>[4];
  /** work inside the move's transaction after the status moved: more moves, a payment */
  inside?: (tx: EntityManager, offer: OfferRow, moves: MoveRecord[]) => Promise<PaymentEntity | void>;
}

/**
 * Moves offers along the one transition table (contracts/offers.ts). Per move, in one transaction: the
 * optimistic-lock update (version + status must still be what was read, else 409), the event-log and
 * outbox rows, the payment if any, and the Idempotency-Key's stored result. After commit: a chat message
 * per moved offer, then `offer.status-changed`.
 */
@Injectable()
export class OfferTransitionsService {
  private readonly logger = new Logger(OfferTransitionsService.name);
  private keyedCalls = 0;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly offers: OffersRepository,
    private readonly keys: IdempotencyStore,
    private readonly payments: PaymentsService,
    private readonly groups: ChatGroupsRepository,
    private readonly messages: ChatMessagesService,
    private readonly events: DomainEvents,
  ) {}

  /** PUT: the provider sets price and deadline (Initial → Proposal) or revises them while a Proposal. */
  update(user: AuthUser, req: MoveRequest, dto: UpdateOfferDto): Promise<OfferDto> {
    const deadline = checkDeadline(dto.deadline)!;
    const fields = { deadline, price: dto.price, localPrice: dto.localPrice ?? dto.price };
    return this.move(user, req, 'update', dto, { fields }, (o) => mapOffer(o));
  }

  /** final, reapprove, finalizeRequest, approveFinalizeRequest, withdraw, reject: moves without a body. */
  simple(user: AuthUser, req: MoveRequest, call: Exclude<PartyCall, 'update' | 'choose' | 'pay' | 'confirmPayment' | 'disputePayment'>): Promise<OfferDto> {
    return this.move(user, req, call, null, {}, (o) => mapOffer(o));
  }

  /** The customer chooses the offer; with allowForMoreOffers false the job stops taking offers and the others close. */
  choose(user: AuthUser, req: MoveRequest, dto: ChooseOfferDto): Promise<OfferDto> {
    const inside = async (tx: EntityManager, offer: OfferRow, moves: MoveRecord[]) => {
      if (dto.allowForMoreOffers) return;
      await this.offers.stopTakingOffers(tx, offer.job_id);
      for (const other of await this.offers.closeOthers(tx, offer.job_id, offer.id, CLOSED_WHEN_ANOTHER_IS_CHOSEN)) {
        moves.push({ offer: other, from: other.from, to: findTransition(other.from, 'closeOthers')!.to, call: 'closeOthers', actorId: user.id });
      }
    };
    // The job's row first: a choice that closes the others locks them after it, so two of them queue on the job.
    const before = (tx: EntityManager, offer: OfferRow) => this.offers.lockJob(tx, offer.job_id);
    return this.move(user, req, 'choose', dto, { before, inside }, (o) => mapOffer(o));
  }

  /**
   * The customer pays the agreed price through a payment provider: the offer waits for the provider's
   * confirmation (PaymentDeclared) with the payment pending, or, when the payment provider took the money at
   * once, closes in the same transaction (settle).
   */
  pay(user: AuthUser, req: MoveRequest, dto: PayOfferDto): Promise<PayResultDto> {
    const inside = async (tx: EntityManager, offer: OfferRow, moves: MoveRecord[]) => {
      const payment = await this.payments.charge(tx, user, offer, { ...dto, idempotencyKey: req.idempotencyKey ?? null });
      moves[0].paymentId = payment.id;
      if (payment.status === 'succeeded') {
        const declared = { version: offer.version + 1, status: moves[0].to };
        const settled = findTransition(declared.status, 'settle')!;
        if (!(await this.offers.move(tx, offer.id, declared, settled.to))) throw new AppError(HttpStatus.CONFLICT, 'JOB_OFFER.CHANGED_MEANWHILE');
        moves.push({ offer, from: declared.status, to: settled.to, call: 'settle', actorId: user.id, paymentId: payment.id });
      }
      return payment;
    };
    return this.move(user, req, 'pay', dto, { inside }, paid);
  }

  /** The provider says the declared payment arrived (it succeeds) or has not (it is disputed, and the offer waits for payment again). */
  settleDeclared(user: AuthUser, req: MoveRequest, call: 'confirmPayment' | 'disputePayment'): Promise<PayResultDto> {
    const inside = async (tx: EntityManager, offer: OfferRow, moves: MoveRecord[]) => {
      const payment = await this.payments.settle(tx, offer, call === 'confirmPayment' ? 'succeeded' : 'disputed');
      moves[0].paymentId = payment.id;
      return payment;
    };
    return this.move(user, req, call, null, { inside }, paid);
  }

  private async move<R>(
    user: AuthUser,
    req: MoveRequest,
    call: PartyCall,
    body: unknown,
    hooks: Hooks,
    respond: (offer: OfferRow, payment?: PaymentEntity) => R,
  ): Promise<R> {
    const key = req.idempotencyKey;
    const fingerprint = key ? IdempotencyStore.fingerprint([call, req.jobCode, req.offerCode, body]) : '';
    const outcome = await this.inTransaction(async (tx) => {
      if (key) {
        const claim = await this.keys.claim<R>(tx, user.id, key, fingerprint);
        if (claim.replay) return { response: claim.response, moves: [] as MoveRecord[] };
      }
      const offer = await this.offers.findByCode(req.offerCode, req.lang ?? null, tx);
      if (!offer || offer.job_code !== req.jobCode || !seesOffer(user, offer)) throw notFound('JOB_OFFER.NOT_FOUND');
      if (partyOf(user, offer) !== actorOf(call)) throw forbidden('JOB_OFFER.NOT_YOUR_MOVE');
      const transition = findTransition(offer.status, call);
      if (!transition) {
        throw new AppError(HttpStatus.CONFLICT, 'JOB_OFFER.ILLEGAL_TRANSITION', { status: offer.status, call });
      }
      await hooks.before?.(tx, offer);
      if (!(await this.offers.move(tx, offer.id, offer, transition.to, hooks.fields))) {
        throw new AppError(HttpStatus.CONFLICT, 'JOB_OFFER.CHANGED_MEANWHILE');
      }
      const moves: MoveRecord[] = [{ offer, from: offer.status, to: transition.to, call, actorId: user.id }];
      const payment = (await hooks.inside?.(tx, offer, moves)) ?? undefined;
      for (const m of moves) await this.offers.record(tx, m);
      const moved = (await this.offers.findByCode(req.offerCode, req.lang ?? null, tx))!;
      moves[0].terms = offerTerms(moved);
      const response = respond(moved, payment);
      if (key) await this.keys.complete(tx, user.id, key, response);
      return { response, moves };
    });
    if (key && ++this.keyedCalls % 100 === 0) this.keys.sweep();
    await this.announce(user, outcome.moves);
    return outcome.response;
  }

  /**
   * A move's transaction. Postgres may still end one of two racing transactions (a deadlock it detected, or a
   * serialization failure): that is a lost race like any other, 409, never a 500.
   */
  private async inTransaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(work);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === DEADLOCK_DETECTED || code === SERIALIZATION_FAILURE) throw new AppError(HttpStatus.CONFLICT, 'JOB_OFFER.CHANGED_MEANWHILE');
      throw err;
    }
  }

  /** After commit: each moved offer's chat message, then its offer.status-changed event (a timer's moves: no actor, the note authored by nobody). */
  async announce(actor: Pick<AuthUser, 'id' | 'code'> | null, moves: MoveRecord[]): Promise<void> {
    const at = new Date().toISOString();
    for (const m of moves) {
      const note = offerNoteOf(m.call as OfferCall, m.from);
      try {
        const group = m.offer.group_code ? await this.groups.findByCode(m.offer.group_code) : null;
        if (group) await this.messages.postOfferNote(group, note.type, note.text, actor?.id ?? null, offerNoteDataOf(m));
      } catch (err) {
        // The move is committed; a lost chat note must not turn it into an error.
        this.logger.error({ err, offer: m.offer.code }, 'offer chat message failed');
      }
      this.events.emit('offer.status-changed', {
        jobCode: m.offer.job_code,
        offerCode: m.offer.code,
        groupCode: m.offer.group_code ?? '',
        status: m.to,
        previousStatus: m.from,
        actorCode: actor?.code ?? null,
        at,
        participantCodes: [m.offer.provider_code, m.offer.customer_code],
        ...(m.terms ? { terms: m.terms } : {}),
      });
    }
  }
}

/** Calls whose note shows the terms they set: a first price, a revision and the final offer. */
const CALLS_WITH_TERMS: readonly string[] = ['update', 'final'];

/** What a move's note carries: the status it moved to and, for the calls that set terms, those terms (from the move, not the note's text). */
function offerNoteDataOf(m: MoveRecord): OfferNoteData {
  if (!m.terms || !CALLS_WITH_TERMS.includes(m.call)) return { status: m.to };
  const { price, localPrice, deadline } = m.terms;
  return { status: m.to, terms: { price, localPrice, deadline } };
}
