import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ChatGroupType, ParticipantRole } from '#shared/contracts/chat';
import { OFFER_REMINDED_TOPIC, OFFER_STATUS_CHANGED_TOPIC, OfferStatus, OfferStatusChangedOutboxPayload } from '#shared/contracts/offers';
import type { OfferTerms } from '#shared/contracts/socket-events';
import { ModeratorScope, moderatorScopeParam } from '../../common/moderator-scope';
import { activeTraceparent } from '#shared/telemetry/trace-context';

/** An offer joined with what its responses and checks need: job, parties, chat and the job version for `lang`. */
export interface OfferRow {
  id: string;
  code: string;
  status: OfferStatus;
  deadline: Date | null;
  price_amount: string | null;
  price_currency: string | null;
  local_price_amount: string | null;
  local_price_currency: string | null;
  version: number;
  created_at: Date;
  provider_id: string;
  provider_code: string;
  group_id: string | null;
  group_code: string | null;
  job_id: string;
  job_code: string;
  instance_id: string;
  customer_id: string;
  customer_code: string;
  job_deadline: Date | null;
  accepting_offers: boolean;
  v_lang: string | null;
  v_title: string | null;
  v_description: string | null;
  /** when the offer entered its status (its last move) */
  status_since: Date;
  /** the instance's timer settings as stored (resolveTimerSettings fills the defaults) */
  offer_timers: unknown;
}

const OFFER_SELECT = `
  SELECT o.id, o.code, o.status, o.deadline, o.price_amount, o.price_currency, o.local_price_amount, o.local_price_currency,
         o.version, o.created_at, o.provider_id, pu.code AS provider_code, o.group_id, g.code AS group_code,
         j.id AS job_id, j.code AS job_code, j.instance_id, j.customer_id, cu.code AS customer_code,
         j.deadline AS job_deadline, j.accepting_offers, v.lang AS v_lang, v.title AS v_title, v.description AS v_description,
         o.updated_at AS status_since, i.offer_timers
  FROM job_offer o
  JOIN job j ON j.id = o.job_id
  JOIN instance i ON i.id = j.instance_id
  JOIN "user" pu ON pu.id = o.provider_id
  JOIN "user" cu ON cu.id = j.customer_id
  LEFT JOIN chat_group g ON g.id = o.group_id
  LEFT JOIN LATERAL (
    SELECT jv.lang, jv.title, jv.description FROM job_version jv WHERE jv.job_id = j.id
    ORDER BY (jv.lang = $1) DESC, jv.is_default DESC LIMIT 1
  ) v ON true`;

/** Who may see which offers, as SQL over `o` and `j` ($2 user id, $3 moderatorScopeParam): the parties and moderators in scope. */
const VISIBLE = `(o.provider_id = $2 OR j.customer_id = $2 OR $3 = 'all' OR j.instance_id::text = $3)`;

/** Who reads: the user, and the instances they moderate. */
export interface Viewer {
  id: string;
  scope: ModeratorScope;
}

export interface MoveRecord {
  offer: Pick<OfferRow, 'id' | 'code' | 'job_code' | 'group_code' | 'provider_id' | 'customer_id' | 'provider_code' | 'customer_code'>;
  from: OfferStatus;
  to: OfferStatus;
  call: string;
  /** null: a timer moved it */
  actorId: string | null;
  paymentId?: string;
  /** the offer's terms after the move, for the offer:status push (the moved offer only) */
  terms?: OfferTerms;
}

/** One row of an offer's history (job_offer_event), with the actor's name. */
export interface OfferEventRow {
  from_status: OfferStatus | null;
  to_status: OfferStatus;
  call: string;
  at: Date;
  actor_code: string | null;
  actor_name: string | null;
  actor_surname: string | null;
}

/** The only code that reads and writes offers, their event log and their outbox rows. */
@Injectable()
export class OffersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  findByCode(code: string, lang: string | null, manager: EntityManager = this.db.manager): Promise<OfferRow | undefined> {
    return manager.query(`${OFFER_SELECT} WHERE o.code = $2`, [lang, code]).then((rows: OfferRow[]) => rows[0]);
  }

  /** Visible offers among these codes, in the order asked. */
  async findVisible(viewer: Viewer, codes: string[], lang: string | null): Promise<OfferRow[]> {
    if (codes.length === 0) return [];
    const rows: OfferRow[] = await this.db.query(`${OFFER_SELECT} WHERE o.code = ANY($4::varchar[]) AND ${VISIBLE}`, [
      lang,
      viewer.id,
      moderatorScopeParam(viewer.scope),
      codes,
    ]);
    return codes.map((c) => rows.find((r) => r.code === c)).filter((r): r is OfferRow => r !== undefined);
  }

  /** A job's offers the viewer may see, newest first. */
  listForJob(viewer: Viewer, jobId: string, lang: string | null, offset: number, limit: number): Promise<OfferRow[]> {
    return this.db.query(`${OFFER_SELECT} WHERE o.job_id = $4 AND ${VISIBLE} ORDER BY o.created_at DESC, o.id DESC OFFSET $5 LIMIT $6`, [
      lang,
      viewer.id,
      moderatorScopeParam(viewer.scope),
      jobId,
      offset,
      limit,
    ]);
  }

  /** Offers where the user is the provider or the job's customer (optionally only the customer's in one status), latest change first. */
  listForParty(userId: string, onlyCustomerStatus: OfferStatus | null, lang: string | null, offset: number, limit: number): Promise<OfferRow[]> {
    const order = `ORDER BY o.updated_at DESC, o.id DESC OFFSET $3 LIMIT $4`;
    if (onlyCustomerStatus === null) {
      return this.db.query(`${OFFER_SELECT} WHERE (o.provider_id = $2 OR j.customer_id = $2) ${order}`, [lang, userId, offset, limit]);
    }
    return this.db.query(`${OFFER_SELECT} WHERE j.customer_id = $2 AND o.status = $5 ${order}`, [lang, userId, offset, limit, onlyCustomerStatus]);
  }

  /**
   * A new offer (Initial) with its chat (provider and customer as participants) and the first event-log row,
   * in the caller's transaction. Null when the provider already has an open offer on the job.
   */
  async create(
    tx: EntityManager,
    input: { code: string; groupCode: string; jobId: string; instanceId: string; providerId: string; customerId: string },
  ): Promise<{ offerId: string; groupId: string } | null> {
    const offers: { id: string }[] = await tx.query(
      `INSERT INTO job_offer (code, job_id, provider_id, status) VALUES ($1, $2, $3, $4)
       ON CONFLICT ("job_id", "provider_id") WHERE "status" <> ${OfferStatus.Closed} DO NOTHING RETURNING id`,
      [input.code, input.jobId, input.providerId, OfferStatus.Initial],
    );
    if (offers.length === 0) return null;
    const [{ id: groupId }]: { id: string }[] = await tx.query(
      `INSERT INTO chat_group (code, instance_id, type, target_id, created_by) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [input.groupCode, input.instanceId, ChatGroupType.JobOffer, input.code, input.providerId],
    );
    await tx.query(`INSERT INTO chat_participant (group_id, user_id, role) VALUES ($1, $2, $3), ($1, $4, $5)`, [
      groupId,
      input.providerId,
      ParticipantRole.Owner,
      input.customerId,
      ParticipantRole.Member,
    ]);
    await tx.query(`UPDATE job_offer SET group_id = $2 WHERE id = $1`, [offers[0].id, groupId]);
    await tx.query(`INSERT INTO job_offer_event (offer_id, from_status, to_status, call, actor_id) VALUES ($1, NULL, $2, 'create', $3)`, [
      offers[0].id,
      OfferStatus.Initial,
      input.providerId,
    ]);
    return { offerId: offers[0].id, groupId };
  }

  /**
   * The optimistic lock: moves the offer only if nobody changed it since it was read (same version and
   * status); false means someone else won. Price and deadline are set when given.
   */
  async move(
    tx: EntityManager,
    offerId: string,
    expected: { version: number; status: OfferStatus },
    to: OfferStatus,
    fields?: { deadline: Date; price: { amount: string; currency: string }; localPrice: { amount: string; currency: string } },
  ): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      // (A CTE, so TypeORM answers the returned rows rather than [rows, count].)
      `WITH moved AS (
         UPDATE job_offer SET status = $4, version = version + 1, updated_at = now(),
           deadline = COALESCE($5, deadline),
           price_amount = COALESCE($6::numeric, price_amount), price_currency = COALESCE($7, price_currency),
           local_price_amount = COALESCE($8::numeric, local_price_amount), local_price_currency = COALESCE($9, local_price_currency)
         WHERE id = $1 AND version = $2 AND status = $3 RETURNING id
       ) SELECT id FROM moved`,
      [
        offerId,
        expected.version,
        expected.status,
        to,
        fields?.deadline ?? null,
        fields?.price.amount ?? null,
        fields?.price.currency ?? null,
        fields?.localPrice.amount ?? null,
        fields?.localPrice.currency ?? null,
      ],
    );
    return rows.length === 1;
  }

  /** Closes the job's other offers that are still in one of these statuses; answers what moved. */
  closeOthers(tx: EntityManager, jobId: string, exceptOfferId: string, statuses: OfferStatus[]): Promise<(MoveRecord['offer'] & { from: OfferStatus })[]> {
    return tx.query(
      `WITH old AS (
         SELECT id, status FROM job_offer WHERE job_id = $1 AND id <> $2 AND status = ANY($3::smallint[]) FOR UPDATE
       ), closed AS (
         UPDATE job_offer o SET status = ${OfferStatus.Closed}, version = o.version + 1, updated_at = now()
         FROM old WHERE o.id = old.id RETURNING o.id, o.code, o.provider_id, o.group_id, old.status AS "from"
       )
       SELECT c.id, c.code, c.provider_id, c."from", j.code AS job_code, j.customer_id, g.code AS group_code,
              pu.code AS provider_code, cu.code AS customer_code
       FROM closed c JOIN job j ON j.id = $1 JOIN "user" pu ON pu.id = c.provider_id JOIN "user" cu ON cu.id = j.customer_id
       LEFT JOIN chat_group g ON g.id = c.group_id`,
      [jobId, exceptOfferId, statuses],
    );
  }

  /** Locks the job's row for the rest of the transaction (before any of its offers' rows). */
  async lockJob(tx: EntityManager, jobId: string): Promise<void> {
    await tx.query(`SELECT 1 FROM job WHERE id = $1 FOR UPDATE`, [jobId]);
  }

  async stopTakingOffers(tx: EntityManager, jobId: string): Promise<void> {
    await tx.query(`UPDATE job SET accepting_offers = false, updated_at = now() WHERE id = $1`, [jobId]);
  }

  /** An offer's history, oldest first: its creation and every move. */
  events(offerId: string): Promise<OfferEventRow[]> {
    return this.db.query(
      `SELECT e.from_status, e.to_status, e.call, e.at, u.code AS actor_code, u.name AS actor_name, u.surname AS actor_surname
       FROM job_offer_event e LEFT JOIN "user" u ON u.id = e.actor_id WHERE e.offer_id = $1 ORDER BY e.id`,
      [offerId],
    );
  }

  /** The event-log row and the outbox row of one move, in the move's transaction. */
  async record(tx: EntityManager, move: MoveRecord): Promise<void> {
    const payload = this.outboxPayload(move);
    await tx.query(
      `WITH logged AS (
         INSERT INTO job_offer_event (offer_id, from_status, to_status, call, actor_id) VALUES ($1, $2, $3, $4, $5) RETURNING id
       )
       INSERT INTO outbox (topic, payload, traceparent) SELECT $6, $7::jsonb || jsonb_build_object('eventId', logged.id::text), $8 FROM logged`,
      [move.offer.id, move.from, move.to, move.call, move.actorId, OFFER_STATUS_CHANGED_TOPIC, JSON.stringify(payload), activeTraceparent() ?? null],
    );
  }

  /**
   * A timer claims one step of an offer's wait, in its transaction: false when the offer moved since the timer was
   * set (another version or status) or the step was already applied, so a step acts at most once.
   */
  async claimTimerStep(tx: EntityManager, offerId: string, expected: { version: number; status: OfferStatus }, key: string): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `WITH offer AS (SELECT id FROM job_offer WHERE id = $1 AND version = $2 AND status = $3 FOR UPDATE)
       INSERT INTO offer_timer_fired (offer_id, version, key) SELECT id, $2, $4 FROM offer
       ON CONFLICT DO NOTHING RETURNING key`,
      [offerId, expected.version, expected.status, key],
    );
    return rows.length === 1;
  }

  /**
   * The outbox row of a reminder (no move): the push and e-mail to the party whose move it is, and the offer's next
   * timer. It names the offer's latest move (eventId), so its e-mail is dropped once the offer moves on.
   */
  async recordReminder(tx: EntityManager, offer: MoveRecord['offer'], status: OfferStatus, step: { key: string; days: number }): Promise<void> {
    const payload = {
      ...this.outboxPayload({ offer, from: status, to: status, call: 'remind', actorId: null }),
      reminder: true,
      reminderKey: step.key,
      reminderDays: step.days,
    };
    await tx.query(
      `INSERT INTO outbox (topic, payload, traceparent)
       SELECT $1, $2::jsonb || COALESCE((SELECT jsonb_build_object('eventId', max(id)::text) FROM job_offer_event WHERE offer_id = $3 HAVING max(id) IS NOT NULL), '{}'), $4`,
      [OFFER_REMINDED_TOPIC, JSON.stringify(payload), offer.id, activeTraceparent() ?? null],
    );
  }

  private outboxPayload(move: MoveRecord): OfferStatusChangedOutboxPayload {
    return {
      offerId: move.offer.id,
      offerCode: move.offer.code,
      jobCode: move.offer.job_code,
      groupCode: move.offer.group_code ?? '',
      from: move.from,
      to: move.to,
      actorId: move.actorId,
      customerId: move.offer.customer_id,
      providerId: move.offer.provider_id,
      ...(move.paymentId ? { paymentId: move.paymentId } : {}),
    };
  }
}
