import { DataSource } from 'typeorm';
import { OfferStatus } from '#shared/contracts/offers';
import { Role } from '#shared/contracts/roles';
import { ReviewClock } from '../../server/src/modules/reviews/review-clock';
import { createGroup, createInstance, createUser, TestUser } from '../factories';
import { ListeningApp, listenTestApp } from '../utils/sockets';
import { as, move, OfferRef, offerIn } from './marketplace.helpers';

const DAY = 86_400_000;

/** The reviews' clock, moved by the test: null is the real time. */
const clock = {
  shift: 0,
  now: () => new Date(Date.now() + clock.shift),
};

describe('reviews: two-sided, double-blind reviews of closed deals', () => {
  let t: ListeningApp;
  let db: DataSource;
  let customer: TestUser, provider: TestUser, outsider: TestUser, admin: TestUser;

  beforeAll(async () => {
    t = await listenTestApp({}, [{ provide: ReviewClock, useValue: clock }]);
    db = t.app.get(DataSource);
    [customer, provider, outsider, admin] = await Promise.all([createUser(t), createUser(t), createUser(t), createUser(t, { role: Role.InstanceAdmin })]);
  });
  afterEach(() => {
    clock.shift = 0;
  });
  afterAll(() => t.close());

  const reviewsUrl = (ref: OfferRef) => `/api/jobs/${ref.job}/offers/${ref.offer}/reviews`;
  const write = (who: TestUser, ref: OfferRef, body: object) => t.http().post(reviewsUrl(ref)).set(as(who)).send(body);
  const read = async (who: TestUser, ref: OfferRef) => (await t.http().get(reviewsUrl(ref)).set(as(who)).expect(200)).body;
  const notes = async (who: TestUser, ref: OfferRef) => {
    const page = await t.http().post(`/api/message/groups/${ref.group}/messages`).set(as(who)).send({}).expect(200);
    return page.body.messages.filter((m: { offerNote?: boolean; message: string }) => m.offerNote && m.message.startsWith('REVIEW.'));
  };
  const rowsOf = async (ref: OfferRef) =>
    db.query(
      `SELECT r.rating, r.text, r.published_at, r.reply_text FROM offer_review r JOIN job_offer o ON o.id = r.offer_id WHERE o.code = $1 ORDER BY r.id`,
      [ref.offer],
    );
  const trackRecord = async (who: TestUser, about: TestUser) => (await t.http().get(`/api/user/${about.user.code}/track-record`).set(as(who)).expect(200)).body;

  it('hides each review from the other party until both wrote, then publishes both with a note in the deal chat', async () => {
    const ref = await offerIn(t, OfferStatus.Closed, customer, provider);
    expect(await read(customer, ref)).toMatchObject({ canWrite: true, published: false, mine: null, others: [], otherWritten: false });

    const first = await write(customer, ref, { rating: 5, text: '  Careful, quick work.  ' }).expect(201);
    expect(first.body).toMatchObject({ rating: 5, text: 'Careful, quick work.', authorRole: 'customer', publishedAt: null, reply: null });
    expect(first.body.subject.code).toBe(provider.user.code);

    // The provider learns that a review exists, not what it says; nobody else sees it either.
    expect(await read(provider, ref)).toMatchObject({ canWrite: true, published: false, mine: null, others: [], otherWritten: true });
    expect((await read(customer, ref)).mine).toMatchObject({ code: first.body.code, publishedAt: null });
    expect((await read(admin, ref)).others).toEqual([]);
    expect((await t.http().get(`/api/user/${provider.user.code}/reviews`).set(as(outsider)).expect(200)).body.reviews).toEqual([]);
    expect(await trackRecord(outsider, provider)).toMatchObject({ average: null, count: 0 });
    expect(await notes(customer, ref)).toEqual([]);

    const second = await write(provider, ref, { rating: 4, text: 'Paid on time.' }).expect(201);
    expect(second.body.publishedAt).not.toBeNull();

    const providerView = await read(provider, ref);
    expect(providerView).toMatchObject({ canWrite: false, published: true, otherWritten: false });
    expect(providerView.mine.code).toBe(second.body.code);
    expect(providerView.others.map((r: { code: string }) => r.code)).toEqual([first.body.code]);
    expect((await read(customer, ref)).others.map((r: { rating: number }) => r.rating)).toEqual([4]);

    // The publication is part of the deal's history: one offer note, told by its mark.
    expect(await notes(provider, ref)).toEqual([
      expect.objectContaining({ type: 1, message: 'REVIEW.MESSAGE.PUBLISHED', offerNote: true, userCode: provider.user.code }),
    ]);

    // The profile shows the published review, the mean and the count; the other side of the deal likewise.
    const about = (await t.http().get(`/api/user/${provider.user.code}/reviews`).set(as(outsider)).expect(200)).body;
    expect(about.reviews.map((r: { code: string }) => r.code)).toContain(first.body.code);
    const record = await trackRecord(outsider, provider);
    expect(record.count).toBeGreaterThanOrEqual(1);
    expect(record.completedDeals).toBeGreaterThanOrEqual(1);
  });

  it('lets the reviewed party reply once, publicly; nobody else replies, and a published review is not edited', async () => {
    const ref = await offerIn(t, OfferStatus.Closed, customer, provider);
    const aboutProvider = (await write(customer, ref, { rating: 3, text: 'Late by a day.' }).expect(201)).body;
    // Not yet public: the provider cannot see it, so it is not there to reply to.
    expect((await t.http().post(`/api/reviews/${aboutProvider.code}/reply`).set(as(provider)).send({ text: 'Sorry.' }).expect(404)).body.message).toBe(
      'REVIEW.NOT_FOUND',
    );
    await write(provider, ref, { rating: 5, text: 'Clear brief.' }).expect(201);
    const before = await rowsOf(ref);

    const refused = [
      [customer, 403, 'REVIEW.OWN_REVIEW'],
      [outsider, 403, 'REVIEW.NOT_ABOUT_YOU'],
    ] as const;
    for (const [who, status, key] of refused) {
      const res = await t.http().post(`/api/reviews/${aboutProvider.code}/reply`).set(as(who)).send({ text: 'Not mine to answer.' }).expect(status);
      expect(res.body.message).toBe(key);
    }
    const edit = await t
      .http()
      .put(`${reviewsUrl(ref)}/mine`)
      .set(as(customer))
      .send({ rating: 1, text: 'Changed my mind.' })
      .expect(409);
    expect(edit.body.message).toBe('REVIEW.PUBLISHED');
    expect(await rowsOf(ref)).toEqual(before);

    const replied = await t.http().post(`/api/reviews/${aboutProvider.code}/reply`).set(as(provider)).send({ text: 'The courier was late.' }).expect(200);
    expect(replied.body.reply).toEqual({ text: 'The courier was late.', at: expect.any(String) });
    const again = await t.http().post(`/api/reviews/${aboutProvider.code}/reply`).set(as(provider)).send({ text: 'Once more.' }).expect(409);
    expect(again.body.message).toBe('REVIEW.ALREADY_REPLIED');
    expect((await rowsOf(ref)).map((r: { reply_text: string | null }) => r.reply_text)).toEqual(['The courier was late.', null]);
    const listed = (await t.http().get(`/api/user/${provider.user.code}/reviews`).set(as(outsider)).expect(200)).body.reviews;
    expect(listed.find((r: { code: string }) => r.code === aboutProvider.code).reply.text).toBe('The courier was late.');
  });

  it('publishes a lone review when the window ends, by the clock alone, and closes the window to the late party', async () => {
    const ref = await offerIn(t, OfferStatus.Closed, customer, provider);
    const written = (await write(provider, ref, { rating: 2, text: 'Slow to answer.' }).expect(201)).body;
    const windowEndsAt = Date.parse((await read(provider, ref)).windowEndsAt);
    expect(windowEndsAt - Date.now()).toBeGreaterThan(14 * DAY - 60_000);

    // A day before the end: still hidden, and its author may still change it.
    clock.shift = 13 * DAY;
    expect((await read(customer, ref)).others).toEqual([]);
    await t
      .http()
      .put(`${reviewsUrl(ref)}/mine`)
      .set(as(provider))
      .send({ rating: 3, text: 'Slow to answer, but fair.' })
      .expect(200);

    // The window's end publishes it: the profile shows it with no read of the deal and no job having run.
    clock.shift = windowEndsAt - Date.now() + 1000;
    const about = (await t.http().get(`/api/user/${customer.user.code}/reviews`).set(as(outsider)).expect(200)).body.reviews;
    expect(about.find((r: { code: string }) => r.code === written.code)).toMatchObject({ rating: 3, publishedAt: new Date(windowEndsAt).toISOString() });
    const late = await write(customer, ref, { rating: 5, text: 'Too late now.' }).expect(409);
    expect(late.body.message).toBe('REVIEW.WINDOW_ENDED');
    const edit = await t
      .http()
      .put(`${reviewsUrl(ref)}/mine`)
      .set(as(provider))
      .send({ rating: 5, text: 'Edited after the end.' })
      .expect(409);
    expect(edit.body.message).toBe('REVIEW.PUBLISHED');

    // The deal's first read after the end records the publication in its chat, once.
    const view = await read(customer, ref);
    expect(view).toMatchObject({ canWrite: false, published: true, mine: null, otherWritten: false });
    expect(view.others.map((r: { code: string }) => r.code)).toEqual([written.code]);
    await read(provider, ref);
    expect(await notes(customer, ref)).toHaveLength(1);
    expect(await rowsOf(ref)).toEqual([expect.objectContaining({ rating: 3, text: 'Slow to answer, but fair.', published_at: new Date(windowEndsAt) })]);
  });

  it('refuses reviews out of turn, twice, on others\u2019 deals, with bad ratings or oversized text, changing nothing', async () => {
    const agreed = await offerIn(t, OfferStatus.Agreed, customer, provider);
    const withdrawn = await offerIn(t, OfferStatus.Proposal, customer, provider);
    await move(t, provider, withdrawn, 'withdraw').expect(200);
    const closed = await offerIn(t, OfferStatus.Closed, customer, provider);
    await write(customer, closed, { rating: 4, text: 'Fine.' }).expect(201);
    const good = { rating: 4, text: 'Fine.' };

    const cases: [string, TestUser, OfferRef, unknown, number, string | string[]][] = [
      ['not closed yet', customer, agreed, good, 409, 'REVIEW.NOT_CLOSED'],
      ['closed without a deal', customer, withdrawn, good, 409, 'REVIEW.NO_DEAL'],
      ['twice', customer, closed, good, 409, 'REVIEW.ALREADY_WRITTEN'],
      ["someone else's deal", outsider, closed, good, 404, 'JOB_OFFER.NOT_FOUND'],
      ['a moderator, no party', admin, closed, good, 403, 'REVIEW.NOT_A_PARTY'],
      ['rating 0', provider, closed, { rating: 0, text: 'x' }, 422, ['VALIDATION.RATING.MIN']],
      ['rating 6', provider, closed, { rating: 6, text: 'x' }, 422, ['VALIDATION.RATING.MAX']],
      ['rating 3.5', provider, closed, { rating: 3.5, text: 'x' }, 422, ['VALIDATION.RATING.IS_INT']],
      ['rating as text', provider, closed, { rating: '5', text: 'x' }, 422, ['VALIDATION.RATING.IS_INT']],
      ['no text', provider, closed, { rating: 5 }, 422, ['VALIDATION.TEXT.IS_STRING']],
      ['blank text', provider, closed, { rating: 5, text: ' \n ' }, 422, ['VALIDATION.TEXT.IS_NOT_BLANK']],
      ['oversized text', provider, closed, { rating: 5, text: 'x'.repeat(2001) }, 422, ['VALIDATION.TEXT.MAX_LENGTH']],
      ['an unknown field', provider, closed, { ...good, stars: 5 }, 422, ['VALIDATION.STARS.UNKNOWN_FIELD']],
    ];
    const before = await Promise.all([agreed, withdrawn, closed].map(rowsOf));
    for (const [name, who, ref, body, status, error] of cases) {
      const res = await write(who, ref, body as object);
      const got = typeof error === 'string' ? res.body.message : res.body.data?.brokenRules;
      expect({ name, status: res.status, got }).toEqual({ name, status, got: error });
    }
    expect(await Promise.all([agreed, withdrawn, closed].map(rowsOf))).toEqual(before);
    for (const ref of [agreed, withdrawn]) expect(await read(customer, ref)).toMatchObject({ canWrite: false, windowEndsAt: null });
  });

  it('takes one of two racing reviews by the same party', async () => {
    const ref = await offerIn(t, OfferStatus.Closed, customer, provider);
    const results = await Promise.all([1, 2].map((n) => write(customer, ref, { rating: n, text: `Try ${n}` })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await rowsOf(ref)).toHaveLength(1);
  });

  it("uses the instance's own window, set by its admin", async () => {
    const instance = await createInstance(t);
    const [c, p, a] = await Promise.all([
      createUser(t, { instanceId: instance.id }),
      createUser(t, { instanceId: instance.id }),
      createUser(t, { instanceId: instance.id, role: Role.InstanceAdmin }),
    ]);
    expect((await t.http().get('/api/reviews/settings').set(as(a)).expect(200)).body).toEqual({ windowDays: 14, isDefault: true });
    expect((await t.http().put('/api/reviews/settings').set(as(c)).send({ windowDays: 3 })).status).toBe(403);
    const bad = await t.http().put('/api/reviews/settings').set(as(a)).send({ windowDays: 0 }).expect(422);
    expect(bad.body.data.brokenRules).toEqual(['VALIDATION.WINDOW_DAYS.MIN']);
    expect((await t.http().put('/api/reviews/settings').set(as(a)).send({ windowDays: 3 }).expect(200)).body).toEqual({ windowDays: 3, isDefault: false });

    const ref = await offerIn(t, OfferStatus.Closed, c, p);
    expect(Date.parse((await read(c, ref)).windowEndsAt) - Date.now()).toBeLessThan(3 * DAY);
    clock.shift = 3 * DAY + 1000;
    expect((await write(c, ref, { rating: 5, text: 'Too late.' }).expect(409)).body.message).toBe('REVIEW.WINDOW_ENDED');
    // The default instance keeps the default.
    expect((await t.http().get('/api/reviews/settings').set(as(admin)).expect(200)).body.windowDays).toBe(14);
  });

  it("measures the usual reply time from the user's messages: the median gap after someone else's message", async () => {
    const [asker, answerer] = await Promise.all([createUser(t), createUser(t)]);
    const group = await createGroup(t, [asker, answerer]);
    const send = (who: TestUser, text: string) => t.http().post(`/api/message/groups/${group}`).set(as(who)).send({ message: text }).expect(201);
    // asker, answerer (+60 s), asker, answerer (+600 s), answerer again (no answer: it follows their own), asker, answerer (+120 s)
    const script: [TestUser, number][] = [
      [asker, 0],
      [answerer, 60],
      [asker, 1000],
      [answerer, 1600],
      [answerer, 1700],
      [asker, 5000],
      [answerer, 5120],
    ];
    const start = Date.now() - 86_400_000;
    for (const [i, [who, at]] of script.entries()) {
      const sent = await send(who, `message ${i}`);
      await db.query(`UPDATE chat_message SET created_at = $2 WHERE code = $1`, [sent.body.code, new Date(start + at * 1000)]);
      if (i === 3) expect((await trackRecord(asker, answerer)).replySeconds).toBeNull();
    }
    expect(await trackRecord(asker, answerer)).toMatchObject({ replySeconds: 120, average: null, count: 0, completedDeals: 0 });
    expect(
      (
        await t
          .http()
          .get(`/api/user/${answerer.user.code}/track-record`)
          .set(as(await createUser(t, { instanceId: (await createInstance(t)).id })))
      ).status,
    ).toBe(404);
  });
});
