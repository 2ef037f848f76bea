import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser } from '#shared/contracts/auth';
import { OfferStatus } from '#shared/contracts/offers';
import { newCode } from '../../common/codes';
import { pageOf } from '../../common/dto/page-query.dto';
import { AppError, forbidden, notFound } from '../../common/errors';
import { DomainEvents } from '../../common/events/domain-events';
import { moderatorScope } from '../../common/moderator-scope';
import { ChatMessagesService } from '../chat/chat-messages.service';
import { CreateOfferDto, OFFER_PAGE_SIZE, OfferDto, OfferEventDto, OfferListQueryDto, OfferPageDto, PartyPaymentPageDto } from './dto/offer.dto';
import { checkDeadline } from './job-rules';
import { JobsRepository } from './jobs.repository';
import { JobsService } from './jobs.service';
import { seesOffer } from './marketplace-access';
import { mapOffer, mapOfferEvent, mapPartyPayment, offerTerms } from './offer.mapper';
import { PaymentsRepository } from './payments/payments.repository';
import { OfferTransitionsService } from './offer-transitions.service';
import { MoveRecord, OfferRow, OffersRepository, Viewer } from './offers.repository';

/** Offers: making one, and reading them as a party or a moderator in scope. Moves are in OfferTransitionsService. */
@Injectable()
export class OffersService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly offers: OffersRepository,
    private readonly jobs: JobsService,
    private readonly messages: ChatMessagesService,
    private readonly events: DomainEvents,
    private readonly transitions: OfferTransitionsService,
    private readonly paymentRows: PaymentsRepository,
    private readonly jobRows: JobsRepository,
  ) {}

  /**
   * A provider's new offer (Initial) on a job of their instance that takes offers, with its chat (provider and
   * customer). One open offer per provider and job; the customer can't offer on their own job.
   */
  async create(user: AuthUser, jobCode: string, dto: CreateOfferDto, lang?: string): Promise<OfferDto> {
    const job = await this.jobs.visibleJob(user, jobCode);
    if (job.customer_id === user.id) throw forbidden('JOB_OFFER.OWN_JOB');
    if (job.instance_id !== user.instanceId) throw forbidden('JOB_OFFER.OTHER_INSTANCE');
    if (!job.accepting_offers) throw new AppError(HttpStatus.CONFLICT, 'JOB.NOT_ACCEPTING_OFFERS');
    const terms = dto.price ? { deadline: checkDeadline(dto.deadline)!, price: dto.price, localPrice: dto.localPrice ?? dto.price } : null;
    const code = newCode();
    const groupCode = newCode();
    const moves = await this.db.transaction(async (tx) => {
      // Taking offers is re-checked under the job's row lock, so a concurrent "choose, no more offers" wins cleanly.
      if (!(await this.jobRows.lockAcceptingOffers(tx, job.id))) throw new AppError(HttpStatus.CONFLICT, 'JOB.NOT_ACCEPTING_OFFERS');
      const created = await this.offers.create(tx, {
        code,
        groupCode,
        jobId: job.id,
        instanceId: job.instance_id,
        providerId: user.id,
        customerId: job.customer_id,
      });
      if (!created) throw new AppError(HttpStatus.CONFLICT, 'JOB_OFFER.ALREADY_EXISTS');
      return terms ? [await this.priceNewOffer(tx, user, code, terms)] : [];
    });
    this.events.emit('group.changed', { groupCode, change: 'created', participantCodes: [user.code, job.customer_code] });
    const text = dto.message?.trim();
    // Its language, as a chat message's: what the writer's composer says, else the interface language asked in.
    if (text) await this.messages.send(user, groupCode, { message: text, lang: dto.lang ?? lang });
    await this.transitions.announce(user, moves);
    return this.get(user, jobCode, code, lang);
  }

  /** A new offer made with its price: its first move (Initial → Proposal, 'update') in the creating transaction. */
  private async priceNewOffer(
    tx: EntityManager,
    user: AuthUser,
    code: string,
    terms: NonNullable<Parameters<OffersRepository['move']>[4]>,
  ): Promise<MoveRecord> {
    const offer = (await this.offers.findByCode(code, null, tx))!;
    await this.offers.move(tx, offer.id, offer, OfferStatus.Proposal, terms);
    const move: MoveRecord = { offer, from: OfferStatus.Initial, to: OfferStatus.Proposal, call: 'update', actorId: user.id };
    await this.offers.record(tx, move);
    move.terms = offerTerms((await this.offers.findByCode(code, null, tx))!);
    return move;
  }

  /** An offer's history (creation and every move, with actor and time), for whoever sees the offer. */
  async history(user: AuthUser, jobCode: string, offerCode: string): Promise<OfferEventDto[]> {
    const offer = await this.visible(user, jobCode, offerCode);
    return (await this.offers.events(offer.id)).map(mapOfferEvent);
  }

  async get(user: AuthUser, jobCode: string | null, offerCode: string, lang?: string): Promise<OfferDto> {
    return mapOffer(await this.visible(user, jobCode, offerCode, lang));
  }

  /** An offer the caller may see (and, with a job code, of that job), else 404 as for an unknown code. */
  async visible(user: AuthUser, jobCode: string | null, offerCode: string, lang?: string): Promise<OfferRow> {
    const offer = await this.offers.findByCode(offerCode, lang ?? null);
    if (!offer || (jobCode !== null && offer.job_code !== jobCode) || !seesOffer(user, offer)) throw notFound('JOB_OFFER.NOT_FOUND');
    return offer;
  }

  /** A job's offers: all of them for its customer and moderators in scope, a provider's own for a provider. */
  async listForJob(user: AuthUser, jobCode: string, query: OfferListQueryDto): Promise<OfferPageDto> {
    const job = await this.jobs.visibleJob(user, jobCode);
    const { page, pageSize } = pageOf(query, OFFER_PAGE_SIZE);
    const rows = await this.offers.listForJob(viewerOf(user), job.id, query.lang ?? null, (page - 1) * pageSize, pageSize + 1);
    return this.page(rows, page, pageSize);
  }

  /** The caller's offers, on either side; or, for payment, the customer's offers waiting for payment. */
  async listMine(user: AuthUser, query: OfferListQueryDto, forPayment = false): Promise<OfferPageDto> {
    const { page, pageSize } = pageOf(query, OFFER_PAGE_SIZE);
    const rows = await this.offers.listForParty(
      user.id,
      forPayment ? OfferStatus.PaymentPending : null,
      query.lang ?? null,
      (page - 1) * pageSize,
      pageSize + 1,
    );
    return this.page(rows, page, pageSize);
  }

  /** Payments the caller made or received, newest first. */
  async payments(user: AuthUser, query: OfferListQueryDto): Promise<PartyPaymentPageDto> {
    const { page, pageSize } = pageOf(query, OFFER_PAGE_SIZE);
    const rows = await this.paymentRows.listForParty(user.id, query.lang ?? null, (page - 1) * pageSize, pageSize + 1);
    return { payments: rows.slice(0, pageSize).map(mapPartyPayment), page, pageSize, hasMore: rows.length > pageSize };
  }

  /** The visible ones among these codes; unknown and hidden codes are left out alike. */
  async byCodes(user: AuthUser, codes: string[], lang?: string): Promise<OfferDto[]> {
    return (await this.offers.findVisible(viewerOf(user), [...new Set(codes)], lang ?? null)).map((r) => mapOffer(r));
  }

  private page(rows: OfferRow[], page: number, pageSize: number): OfferPageDto {
    return { offers: rows.slice(0, pageSize).map((r) => mapOffer(r)), page, pageSize, hasMore: rows.length > pageSize };
  }
}

const viewerOf = (user: AuthUser): Viewer => ({ id: user.id, scope: moderatorScope(user) });
