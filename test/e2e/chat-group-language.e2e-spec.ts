import { createTestApp, TestApp } from '../utils/create-app';
import { createUser } from '../factories';
import { as, makeOffer, postJob, version } from './marketplace.helpers';

/** An offer chat's title is its job's title in the reader's language: the one asked for, else the reader's own. */
describe("a chat's language-dependent text follows the reader", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers GET /api/message/groups/{id} in the language asked for, else in the caller’s stored one, like the list', async () => {
    const customer = await createUser(t, { lang: 'pol' });
    const provider = await createUser(t, { lang: 'pol' });
    const job = await postJob(t, customer, { versions: [version('eng', { isDefault: true }), version('pol')] });
    const { group } = await makeOffer(t, provider, job);

    const get = async (query: Record<string, string>) =>
      (await t.http().get(`/api/message/groups/${group}`).query(query).set(as(provider)).expect(200)).body as { jobTitle: string | null };
    expect((await get({ lang: 'pol' })).jobTitle).toBe('Title in pol');
    expect((await get({ lang: 'eng' })).jobTitle).toBe('Title in eng');
    // No lang: the caller's stored language (Polish), as every call that answers language-dependent text.
    expect((await get({})).jobTitle).toBe('Title in pol');
    const list = await t.http().get('/api/message/groups').set(as(provider)).expect(200);
    expect(list.body.groups.find((g: { code: string }) => g.code === group).jobTitle).toBe('Title in pol');
    await t.http().get(`/api/message/groups/${group}`).query({ lang: 'xx' }).set(as(provider)).expect(422);
  });
});
