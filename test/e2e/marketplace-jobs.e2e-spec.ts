import { Role } from '#shared/contracts/roles';
import { createInstance, createUser, TestUser } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';
import { as, future, postJob, version } from './marketplace.helpers';

describe('marketplace: jobs', () => {
  let t: TestApp;
  let customer: TestUser, worker: TestUser, other: TestUser, foreign: TestUser, globalAdmin: TestUser;

  const create = (u: TestUser, body: object) => t.http().post('/api/job').set(as(u)).send(body);
  const myJobCount = async (u: TestUser) => (await t.http().get('/api/job?mine=true&pageSize=100').set(as(u)).expect(200)).body.jobs.length;

  beforeAll(async () => {
    t = await createTestApp();
    const elsewhere = await createInstance(t);
    [customer, worker, other, foreign, globalAdmin] = await Promise.all([
      createUser(t),
      createUser(t),
      createUser(t),
      createUser(t, { instanceId: elsewhere.id }),
      createUser(t, { instanceId: elsewhere.id, role: Role.GlobalAdmin }),
    ]);
  });
  afterAll(() => t.close());

  it('creates a job with its versions, storing the deadline as UTC', async () => {
    const res = await create(customer, {
      deadline: '2031-05-01T12:00:00+02:00',
      versions: [version('eng'), version('pol', { isDefault: true })],
    }).expect(201);
    expect(res.body).toMatchObject({
      code: expect.any(String),
      deadline: '2031-05-01T10:00:00.000Z',
      customerCode: customer.user.code,
      acceptingOffers: true,
      lang: 'pol',
      title: 'Title in pol',
      versions: expect.arrayContaining([
        { lang: 'pol', title: 'Title in pol', description: 'A long enough description written in pol.', isDefault: true },
        { lang: 'eng', title: 'Title in eng', description: 'A long enough description written in eng.', isDefault: false },
      ]),
    });
    // With no version marked, the first one is the default.
    const plain = await create(customer, { versions: [version('ger'), version('fra')] }).expect(201);
    expect(plain.body).toMatchObject({ lang: 'ger', deadline: null });
    expect(plain.body.versions.find((v: { lang: string }) => v.lang === 'ger').isDefault).toBe(true);
  });

  it.each([
    [{ title: 'Just6!', description: 'x'.repeat(20) }, null],
    [{ lang: undefined }, 'VALIDATION.VERSIONS.LANG.REQUIRED'],
    [{ lang: '' }, 'VALIDATION.VERSIONS.LANG.REQUIRED'],
    [{ lang: 'xx' }, 'VALIDATION.VERSIONS.LANG.IS_IN'],
    [{ title: undefined }, 'VALIDATION.VERSIONS.TITLE.REQUIRED'],
    [{ title: '   ' }, 'VALIDATION.VERSIONS.TITLE.REQUIRED'],
    [{ title: 'Short' }, 'VALIDATION.VERSIONS.TITLE.MIN_LENGTH'],
    [{ title: '  Short  ' }, 'VALIDATION.VERSIONS.TITLE.MIN_LENGTH'],
    [{ title: 123456 }, 'VALIDATION.VERSIONS.TITLE.IS_STRING'],
    [{ title: 'x'.repeat(201) }, 'VALIDATION.VERSIONS.TITLE.MAX_LENGTH'],
    [{ description: undefined }, 'VALIDATION.VERSIONS.DESCRIPTION.REQUIRED'],
    [{ description: 'x'.repeat(19) }, 'VALIDATION.VERSIONS.DESCRIPTION.MIN_LENGTH'],
    [{ isDefault: 'yes' }, 'VALIDATION.VERSIONS.IS_DEFAULT.IS_BOOLEAN'],
    [{ extra: 1 }, 'VALIDATION.VERSIONS.EXTRA.UNKNOWN_FIELD'],
  ])('validates a version as the translation form: %j → %s', async (change, rule) => {
    const before = await myJobCount(customer);
    const res = await create(customer, { versions: [{ ...version('eng'), ...change }] });
    if (rule === null) {
      expect(res.status).toBe(201);
      return;
    }
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: [rule] } });
    expect(await myJobCount(customer)).toBe(before);
  });

  it('refuses a language twice with uniqueTranslation carrying the value and count, and two defaults', async () => {
    const before = await myJobCount(customer);
    const twice = await create(customer, { versions: [version('eng'), version('pol'), version('eng'), version('eng')] }).expect(422);
    expect(twice.body).toEqual({
      code: 422,
      message: 'SHARED.ERROR.VALIDATION',
      data: { brokenRules: ['VALIDATION.VERSIONS.UNIQUE_TRANSLATION'], uniqueTranslation: { value: 'eng', count: 3 } },
    });
    const defaults = await create(customer, { versions: [version('eng', { isDefault: true }), version('pol', { isDefault: true })] }).expect(422);
    expect(defaults.body.data.brokenRules).toEqual(['VALIDATION.VERSIONS.ONE_DEFAULT']);
    const none = await create(customer, { versions: [] }).expect(422);
    expect(none.body.data.brokenRules).toEqual(['VALIDATION.VERSIONS.ARRAY_MIN_SIZE']);
    const past = await create(customer, { versions: [version('eng')], deadline: '2001-01-01T00:00:00Z' }).expect(422);
    expect(past.body.data.brokenRules).toEqual(['VALIDATION.DEADLINE.MIN_DATE']);
    expect(await myJobCount(customer)).toBe(before);
  });

  it('answers in the asked language, else the default version', async () => {
    const code = await postJob(t, customer, { versions: [version('eng'), version('pol', { isDefault: true }), version('ger')] });
    const get = async (query: string) => (await t.http().get(`/api/job/${code}${query}`).set(as(worker)).expect(200)).body;
    expect(await get('?lang=eng')).toMatchObject({ lang: 'eng', title: 'Title in eng' });
    expect(await get('?lang=ger')).toMatchObject({ lang: 'ger', title: 'Title in ger' });
    expect(await get('?lang=spa')).toMatchObject({ lang: 'pol', title: 'Title in pol' });
    expect(await get('')).toMatchObject({ lang: 'pol', title: 'Title in pol' });
    await t.http().get(`/api/job/${code}?lang=xx`).set(as(worker)).expect(422);

    const list = await t.http().get('/api/job?lang=spa&pageSize=100').set(as(worker)).expect(200);
    expect(list.body.jobs.find((j: { code: string }) => j.code === code)).toMatchObject({ lang: 'pol' });
    const eng = await t.http().get('/api/job?lang=eng&pageSize=100').set(as(worker)).expect(200);
    expect(eng.body.jobs.find((j: { code: string }) => j.code === code)).toMatchObject({ lang: 'eng' });

    // Offers carry their job in the asked language too.
    const offer = await t.http().post(`/api/jobs/${code}/offers?lang=ger`).set(as(worker)).send({}).expect(201);
    expect(offer.body.job).toMatchObject({ lang: 'ger', title: 'Title in ger' });
    const fallback = await t.http().get(`/api/jobs/offers/${offer.body.code}?lang=fra`).set(as(worker)).expect(200);
    expect(fallback.body.job).toMatchObject({ lang: 'pol', title: 'Title in pol' });
  });

  it('lists the instance jobs newest first, paginated, and only mine on request', async () => {
    // An instance of its own, so jobs other test files post meanwhile don't show up here.
    const place = await createInstance(t);
    const [poster, reader] = await Promise.all([createUser(t, { instanceId: place.id }), createUser(t, { instanceId: place.id })]);
    const theirs = [await postJob(t, reader), await postJob(t, poster)];
    const mine = await postJob(t, poster);
    const first = await t.http().get('/api/job?page=1&pageSize=2').set(as(reader)).expect(200);
    expect(first.body).toMatchObject({ page: 1, pageSize: 2, hasMore: true });
    expect(first.body.jobs.map((j: { code: string }) => j.code)).toEqual([mine, theirs[1]]);
    const second = await t.http().get('/api/job?page=2&pageSize=2').set(as(reader)).expect(200);
    expect(second.body).toMatchObject({ hasMore: false, jobs: [expect.objectContaining({ code: theirs[0] })] });
    const own = await t.http().get('/api/job?mine=true').set(as(poster)).expect(200);
    expect(own.body.jobs.map((j: { code: string }) => j.code)).toEqual([mine, theirs[1]]);
    const elsewhere = await t.http().get('/api/job?pageSize=100').set(as(worker)).expect(200);
    expect(elsewhere.body.jobs.map((j: { code: string }) => j.code)).not.toContain(mine);
    await t.http().get('/api/job?pageSize=101').set(as(worker)).expect(422);
  });

  it('searches titles of any version, case-insensitive, with LIKE characters taken literally', async () => {
    const place = await createInstance(t);
    const [poster, reader] = await Promise.all([createUser(t, { instanceId: place.id }), createUser(t, { instanceId: place.id })]);
    const fence = await postJob(t, poster, {
      versions: [version('eng', { title: 'Paint the garden FENCE' }), version('pol', { title: 'Pomalować płot w ogrodzie' })],
    });
    const roof = await postJob(t, reader, { versions: [version('eng', { title: 'Fix a roof, 100% dry' })] });
    const under = await postJob(t, poster, { versions: [version('eng', { title: 'Rename file_name fields' })] });
    const codes = async (query: string, who = reader) =>
      (await t.http().get(`/api/job?${query}`).set(as(who)).expect(200)).body.jobs.map((j: { code: string }) => j.code);

    expect(await codes('q=fence')).toEqual([fence]);
    // The Polish title finds the job, which still answers in the asked language.
    const polish = await t
      .http()
      .get(`/api/job?q=${encodeURIComponent('PŁOT')}&lang=eng`)
      .set(as(reader))
      .expect(200);
    expect(polish.body.jobs).toEqual([expect.objectContaining({ code: fence, lang: 'eng', title: 'Paint the garden FENCE' })]);
    // % and _ are plain characters, not wildcards.
    expect(await codes(`q=${encodeURIComponent('100%')}`)).toEqual([roof]);
    expect(await codes(`q=${encodeURIComponent('0%d')}`)).toEqual([]);
    expect(await codes('q=e_n')).toEqual([under]);
    expect(await codes(`q=${encodeURIComponent('e\\n')}`)).toEqual([]);
    // Blank or spaces: every job; combined with mine and paging.
    expect(await codes('q=')).toEqual([under, roof, fence]);
    expect(await codes('q=%20%20')).toEqual([under, roof, fence]);
    expect(await codes('q=a&mine=true', poster)).toEqual([under, fence]);
    expect(await codes('q=a&mine=true&pageSize=1&page=2', poster)).toEqual([fence]);
    // Other instances' jobs are never found.
    expect(await codes('q=fence', worker)).not.toContain(fence);

    const long = await t
      .http()
      .get(`/api/job?q=${'x'.repeat(101)}`)
      .set(as(reader))
      .expect(422);
    expect(long.body).toEqual({ code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: ['VALIDATION.Q.MAX_LENGTH'] } });
    const twice = await t.http().get('/api/job?q=a&q=b').set(as(reader)).expect(422);
    expect(twice.body.data.brokenRules).toEqual(['VALIDATION.Q.IS_STRING']);
  });

  it('counts the offers made on each job, in the list and the job', async () => {
    const place = await createInstance(t);
    const [poster, p1, p2] = await Promise.all([1, 2, 3].map(() => createUser(t, { instanceId: place.id })));
    const busy = await postJob(t, poster);
    const quiet = await postJob(t, poster);
    const first = await t.http().post(`/api/jobs/${busy}/offers`).set(as(p1)).send({}).expect(201);
    await t.http().post(`/api/jobs/${busy}/offers`).set(as(p2)).send({}).expect(201);
    // A withdrawn offer still counts as made.
    await t.http().post(`/api/jobs/${busy}/offers/${first.body.code}/withdraw`).set(as(p1)).send({}).expect(200);
    const list = await t.http().get('/api/job').set(as(p1)).expect(200);
    expect(list.body.jobs.map((j: { code: string; offerCount: number }) => [j.code, j.offerCount])).toEqual([
      [quiet, 0],
      [busy, 2],
    ]);
    expect((await t.http().get(`/api/job/${busy}`).set(as(p2)).expect(200)).body.offerCount).toBe(2);
  });

  it('lets only the customer update a job; other instances see nothing', async () => {
    const code = await postJob(t, customer, { versions: [version('eng'), version('pol')] });
    const body = { versions: [version('spa', { title: 'Nuevo título' })], acceptingOffers: false, deadline: future(90) };
    const res = await t.http().post(`/api/job/${code}?lang=spa`).set(as(customer)).send(body).expect(200);
    expect(res.body).toMatchObject({ lang: 'spa', title: 'Nuevo título', acceptingOffers: false });
    expect(res.body.versions).toHaveLength(1);
    expect((await t.http().post(`/api/job/${code}`).set(as(worker)).send(body).expect(403)).body.message).toBe('JOB.NOT_YOURS');
    expect((await t.http().post(`/api/job/${code}`).set(as(foreign)).send(body).expect(404)).body.message).toBe('JOB.NOT_FOUND');
    expect((await t.http().get(`/api/job/${code}`).set(as(foreign)).expect(404)).body.message).toBe('JOB.NOT_FOUND');
    await t.http().get(`/api/job/${code}`).set(as(globalAdmin)).expect(200);
    const dup = await t
      .http()
      .post(`/api/job/${code}`)
      .set(as(customer))
      .send({ versions: [version('eng'), version('eng')] })
      .expect(422);
    expect(dup.body.data.uniqueTranslation).toEqual({ value: 'eng', count: 2 });
    // A job that takes no offers refuses new ones.
    expect((await t.http().post(`/api/jobs/${code}/offers`).set(as(worker)).send({}).expect(409)).body.message).toBe('JOB.NOT_ACCEPTING_OFFERS');
  });

  it('puts users on job roles (customer only, users of the instance)', async () => {
    const code = await postJob(t, customer);
    const roles = await t.http().get(`/api/job/${code}/roles?lang=eng`).set(as(worker)).expect(200);
    expect(roles.body.map((r: { id: number; users: unknown[] }) => [r.id, r.users.length])).toEqual([
      [1, 0],
      [2, 0],
      [3, 0],
      [4, 0],
    ]);

    const set = await t
      .http()
      .post(`/api/job/${code}/roles/3?lang=eng`)
      .set(as(customer))
      .send({ users: [worker.user.code, other.user.code] })
      .expect(200);
    expect(set.body).toMatchObject({ id: 3, name: 'JOB.ROLE.CONTRIBUTOR' });
    expect(set.body.users.map((u: { code: string }) => u.code)).toEqual([worker.user.code, other.user.code]);
    await t
      .http()
      .post(`/api/job/${code}/roles/3`)
      .set(as(customer))
      .send({ users: [other.user.code] })
      .expect(200);
    const after = await t.http().get(`/api/job/${code}/roles`).set(as(other)).expect(200);
    expect(after.body[2].users.map((u: { code: string }) => u.code)).toEqual([other.user.code]);

    expect((await t.http().post(`/api/job/${code}/roles/3`).set(as(worker)).send({ users: [] }).expect(403)).body.message).toBe('JOB.NOT_YOURS');
    const unknown = await t
      .http()
      .post(`/api/job/${code}/roles/1`)
      .set(as(customer))
      .send({ users: [foreign.user.code] })
      .expect(422);
    expect(unknown.body.data.brokenRules).toEqual(['JOB.UNKNOWN_USERS']);
    expect((await t.http().post(`/api/job/${code}/roles/9`).set(as(customer)).send({ users: [] }).expect(422)).body.data.brokenRules).toEqual([
      'VALIDATION.ROLE_ID.INVALID',
    ]);
    await t.http().get(`/api/job/${code}/roles`).set(as(foreign)).expect(404);
  });

  it("opens the job's FAQ chat on first use and lets anyone of the instance join it", async () => {
    const code = await postJob(t, customer);
    const first = await t.http().get(`/api/job/${code}/faq`).set(as(worker)).expect(200);
    expect(first.body).toMatchObject({ type: 2, targetId: code, participantCount: 2 });
    const second = await t.http().get(`/api/job/${code}/faq`).set(as(other)).expect(200);
    expect(second.body.code).toBe(first.body.code);
    expect(second.body.participants.map((p: { userCode: string }) => p.userCode).sort()).toEqual(
      [customer.user.code, worker.user.code, other.user.code].sort(),
    );
    await t.http().post(`/api/message/groups/${first.body.code}`).set(as(other)).send({ message: 'Is remote work fine?' }).expect(201);
    const again = await t.http().get(`/api/job/${code}/faq`).set(as(customer)).expect(200);
    expect(again.body).toMatchObject({ code: first.body.code, participantCount: 3, unread: 1 });
    await t.http().get(`/api/job/${code}/faq`).set(as(foreign)).expect(404);
  });
});
