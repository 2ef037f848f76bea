import { randomBytes } from 'node:crypto';
import { Role } from '#shared/contracts/roles';
import { createInstance, createUser, TestUser } from '../factories';
import { closeAllSockets, connect, ListeningApp, listenTestApp, next, record } from '../utils/sockets';
import { as, future, postJob, version } from './marketplace.helpers';

/** Job edits and an instance's new look reach the instance's open tabs over the socket, and no other instance's. */
describe('live job and instance changes', () => {
  let t: ListeningApp;
  const host = () => `live-${randomBytes(4).toString('hex')}.test`;

  beforeAll(async () => {
    t = await listenTestApp();
  });
  afterEach(() => closeAllSockets());
  afterAll(() => t.close());

  async function world() {
    const instance = await createInstance(t, { hosts: [host()] });
    const [customer, provider, admin] = await Promise.all([
      createUser(t, { instanceId: instance.id }),
      createUser(t, { instanceId: instance.id }),
      createUser(t, { instanceId: instance.id, role: Role.InstanceAdmin }),
    ]);
    return { instance, customer, provider, admin };
  }

  const saveJob = (customer: TestUser, code: string, body: Record<string, unknown>) =>
    t
      .http()
      .post(`/api/job/${code}`)
      .set(as(customer))
      .send({ versions: [version('eng')], ...body })
      .expect(200);

  it("pushes the customer's 'taking offers' switch and edits to the instance's users, not to another instance's", async () => {
    const here = await world();
    const there = await world();
    const job = await postJob(t, here.customer, { versions: [version('eng', { isDefault: true }), version('pol')] });
    const [provider, stranger] = await Promise.all([connect(t.url, here.provider.token), connect(t.url, there.provider.token)]);
    const strangerSaw = record(stranger, 'job:updated');

    const stopped = next(provider, 'job:updated', (p) => p.code === job);
    await saveJob(here.customer, job, { acceptingOffers: false, versions: [version('eng', { isDefault: true }), version('pol')] });
    expect(await stopped).toMatchObject({ code: job, acceptingOffers: false, lang: 'eng', title: 'Title in eng', customerCode: here.customer.user.code });
    expect((await stopped).versions.map((v: { lang: string }) => v.lang).sort()).toEqual(['eng', 'pol']);

    const deadline = future(90);
    const edited = next(provider, 'job:updated', (p) => p.code === job && p.acceptingOffers);
    await saveJob(here.customer, job, { acceptingOffers: true, deadline, versions: [version('eng', { title: 'A new title', isDefault: true })] });
    expect(await edited).toMatchObject({ title: 'A new title', deadline, acceptingOffers: true });

    // The other instance's provider heard nothing (the same broadcasts were heard here, so they had their chance).
    expect(strangerSaw).toEqual([]);
  });

  it("a refused save pushes nothing, and only the job's customer can save it", async () => {
    const { customer, provider } = await world();
    const job = await postJob(t, customer);
    const socket = await connect(t.url, customer.token);
    const seen = record(socket, 'job:updated');
    await t
      .http()
      .post(`/api/job/${job}`)
      .set(as(provider))
      .send({ versions: [version('eng')], acceptingOffers: false })
      .expect(403);
    await t.http().post(`/api/job/${job}`).set(as(customer)).send({ versions: [] }).expect(422);
    const marker = next(socket, 'job:updated', (p) => p.code === job);
    await saveJob(customer, job, { acceptingOffers: true });
    await marker;
    expect(seen.map((p) => p.acceptingOffers)).toEqual([true]);
  });

  it("pushes an admin's new name, colours and logo to the instance's users, not to another instance's", async () => {
    const here = await world();
    const there = await world();
    const [user, stranger] = await Promise.all([connect(t.url, here.customer.token), connect(t.url, there.customer.token)]);
    const strangerSaw = record(stranger, 'instance:updated');

    const first = next(user, 'instance:updated');
    await t
      .http()
      .post('/api/Instance')
      .set(as(here.admin))
      .send({ name: 'Acme jobs', color: 'ABCDEF', accent: '010203', logoUrl: '/assets/logo.svg' })
      .expect(200);
    const pushed = await first;
    expect(pushed).toMatchObject({ code: here.instance.code, name: 'Acme jobs', color: 'abcdef', accent: '010203', logoUrl: '/assets/logo.svg' });
    expect(typeof pushed.stylesVersion).toBe('string');
    expect(pushed.id).toBeUndefined();

    const second = next(user, 'instance:updated');
    await t.http().post('/api/Instance').set(as(here.admin)).send({ customCss: '.a { color: red }' }).expect(200);
    expect((await second).stylesVersion).not.toBe(pushed.stylesVersion);
    expect(strangerSaw).toEqual([]);
  });

  it("a global admin's change to another instance reaches that instance's users only", async () => {
    const here = await world();
    const there = await world();
    const globalAdmin = await createUser(t, { instanceId: here.instance.id, role: Role.GlobalAdmin });
    const [mine, theirs] = await Promise.all([connect(t.url, here.customer.token), connect(t.url, there.customer.token)]);
    const mineSaw = record(mine, 'instance:updated');
    const pushed = next(theirs, 'instance:updated');
    await t.http().post('/api/Instance').set(as(globalAdmin)).send({ code: there.instance.code, name: 'Their name' }).expect(200);
    expect(await pushed).toMatchObject({ code: there.instance.code, name: 'Their name' });
    expect(mineSaw).toEqual([]);
  });
});
