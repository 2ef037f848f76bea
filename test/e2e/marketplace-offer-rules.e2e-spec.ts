import { DataSource } from 'typeorm';
import { actorOf, findTransition, OFFER_STATUSES, OFFER_TRANSITIONS, OfferStatus, PARTY_CALLS } from '#shared/contracts/offers';
import { Role } from '#shared/contracts/roles';
import { createInstance, createUser, TestUser } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';
import { as, move, OfferRef, offerIn, PartyCallName, postJob } from './marketplace.helpers';

describe('marketplace: the offer status machine', () => {
  let t: TestApp;
  let customer: TestUser, provider: TestUser, stranger: TestUser, foreign: TestUser, admin: TestUser, globalAdmin: TestUser;
  let job: string;
  const offers = new Map<OfferStatus, OfferRef>();

  const read = async (ref: OfferRef) => (await t.http().get(`/api/jobs/${ref.job}/offers/${ref.offer}`).set(as(customer)).expect(200)).body;
  const partyFor = (call: PartyCallName, right: boolean) => ((actorOf(call) === 'provider') === right ? provider : customer);

  beforeAll(async () => {
    t = await createTestApp();
    const other = await createInstance(t);
    [customer, provider, stranger, admin, foreign, globalAdmin] = await Promise.all([
      createUser(t),
      createUser(t),
      createUser(t),
      createUser(t, { role: Role.InstanceAdmin }),
      createUser(t, { instanceId: other.id, role: Role.InstanceAdmin }),
      createUser(t, { instanceId: other.id, role: Role.GlobalAdmin }),
    ]);
    job = await postJob(t, customer);
    // One offer resting in every status (each provider has one open offer per job, so a job per offer).
    for (const status of OFFER_STATUSES) offers.set(status, await offerIn(t, status, customer, provider));
  });
  afterAll(() => t.close());

  it('has at most one row per (status, call) and none out of Closed', () => {
    const keys = OFFER_TRANSITIONS.map((r) => `${r.from}:${r.call}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(OFFER_TRANSITIONS.filter((r) => r.from === OfferStatus.Closed)).toEqual([]);
    expect(offers.size).toBe(OFFER_STATUSES.length);
  });

  describe.each(OFFER_STATUSES.map((s) => [OfferStatus[s], s]))('from %s', (_name, status) => {
    const illegal = PARTY_CALLS.filter((call) => !findTransition(status as OfferStatus, call));
    const legal = PARTY_CALLS.filter((call) => findTransition(status as OfferStatus, call));

    if (illegal.length) {
      it.each(illegal)('%s by the right party is a 409 and changes nothing', async (call) => {
        const ref = offers.get(status as OfferStatus)!;
        const before = await read(ref);
        const res = await move(t, partyFor(call, true), ref, call).expect(409);
        expect(res.body).toEqual({ code: 409, message: 'JOB_OFFER.ILLEGAL_TRANSITION', data: { status, call } });
        expect(await read(ref)).toEqual(before);
      });
    }

    if (legal.length) {
      it.each(legal)('%s by the wrong party or a moderator is a 403, by a stranger or another instance a 404', async (call) => {
        const ref = offers.get(status as OfferStatus)!;
        const before = await read(ref);
        for (const who of [partyFor(call, false), admin, globalAdmin]) {
          const res = await move(t, who, ref, call).expect(403);
          expect(res.body).toEqual({ code: 403, message: 'JOB_OFFER.NOT_YOUR_MOVE' });
        }
        for (const who of [stranger, foreign]) {
          const res = await move(t, who, ref, call).expect(404);
          expect(res.body).toEqual({ code: 404, message: 'JOB_OFFER.NOT_FOUND' });
        }
        expect(await read(ref)).toEqual(before);
      });
    }
  });

  it('hides an offer from strangers and other instances exactly like an unknown one, and shows it to moderators in scope', async () => {
    const ref = offers.get(OfferStatus.Agreed)!;
    const unknown = await t.http().get(`/api/jobs/offers/unknownOfferCode1`).set(as(stranger)).expect(404);
    for (const who of [stranger, foreign]) {
      const byCode = await t.http().get(`/api/jobs/offers/${ref.offer}`).set(as(who)).expect(404);
      const byJob = await t.http().get(`/api/jobs/${ref.job}/offers/${ref.offer}`).set(as(who)).expect(404);
      const listed = await t
        .http()
        .post('/api/jobs/offers/ByIdList')
        .set(as(who))
        .send({ codes: [ref.offer] })
        .expect(200);
      expect(byCode.body).toEqual(unknown.body);
      expect(byJob.body).toEqual(unknown.body);
      expect(listed.body).toEqual([]);
    }
    await t.http().get(`/api/jobs/offers/${ref.offer}`).set(as(admin)).expect(200);
    await t.http().get(`/api/jobs/offers/${ref.offer}`).set(as(globalAdmin)).expect(200);
    // The offer under another job's code is not found either.
    await t.http().get(`/api/jobs/${job}/offers/${ref.offer}`).set(as(customer)).expect(404);
    await move(t, provider, { ...ref, job }, 'finalizeRequest').expect(404);
  });

  it('lets exactly one of two racing moves win; the other gets a 409', async () => {
    // From CustomerApproved, reapprove (provider) and reject (customer) exclude each other in either order.
    const db = t.app.get(DataSource);
    for (let round = 0; round < 4; round++) {
      const ref = await offerIn(t, OfferStatus.CustomerApproved, customer, provider);
      const [reapprove, reject] = await Promise.all([move(t, provider, ref, 'reapprove'), move(t, customer, ref, 'reject')]);
      expect([reapprove.status, reject.status].sort()).toEqual([200, 409]);
      const loser = reapprove.status === 409 ? reapprove : reject;
      expect(['JOB_OFFER.CHANGED_MEANWHILE', 'JOB_OFFER.ILLEGAL_TRANSITION']).toContain(loser.body.message);
      const winner = reapprove.status === 200 ? 'reapprove' : 'reject';
      expect(await read(ref)).toMatchObject({ status: winner === 'reapprove' ? OfferStatus.Agreed : OfferStatus.Closed, version: 5 });
      const log = await db.query(`SELECT e.call FROM job_offer_event e JOIN job_offer o ON o.id = e.offer_id WHERE o.code = $1 AND e.from_status = 50`, [
        ref.offer,
      ]);
      expect(log).toEqual([{ call: winner }]);
    }
  });

  it('lets one of many identical racing moves win and records it once', async () => {
    const db = t.app.get(DataSource);
    const ref = await offerIn(t, OfferStatus.Proposal, customer, provider);
    const results = await Promise.all(Array.from({ length: 6 }, () => move(t, provider, ref, 'final')));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const rows = await db.query(
      `SELECT count(*)::int AS n FROM outbox WHERE topic = 'offer.status-changed' AND payload->>'offerCode' = $1 AND payload->>'to' = '10'`,
      [ref.offer],
    );
    expect(rows).toEqual([{ n: 1 }]);
    const page = await t.http().post(`/api/message/groups/${ref.group}/messages`).set(as(customer)).send({}).expect(200);
    expect(page.body.messages.filter((m: { type: number }) => m.type === 2)).toHaveLength(1);
  });
});
