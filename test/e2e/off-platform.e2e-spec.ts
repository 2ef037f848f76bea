import { OfferStatus } from '#shared/contracts/offers';
import { createGroup, createUser, TestUser } from '../factories';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp, next } from '../utils/sockets';
import { as, offerIn } from './marketplace.helpers';

describe('off-platform warnings: the server marks messages in offer chats before Agreed', () => {
  let t: ListeningApp;
  let customer: TestUser, provider: TestUser;
  const send = (u: TestUser, group: string, message: string) => t.http().post(`/api/message/groups/${group}`).set(as(u)).send({ message });
  const newest = async (u: TestUser, group: string) =>
    (await t.http().post(`/api/message/groups/${group}/messages`).set(as(u)).send({}).expect(200)).body.messages as {
      message: string;
      offPlatform?: true;
    }[];

  beforeAll(async () => {
    t = await listenTestApp();
    [customer, provider] = await Promise.all([createUser(t), createUser(t)]);
  });
  afterEach(() => closeAllSockets());
  afterAll(() => t.close());

  it('marks a phone number before Agreed for the reader, live and in pages, and leaves ordinary messages unmarked', async () => {
    const ref = await offerIn(t, OfferStatus.Proposal, customer, provider);
    const reader = await connect(t.url, customer.token);
    const live = next(reader, 'message:new', (m) => m.clientKey === 'p1');
    const sender = await connect(t.url, provider.token);
    const ack = await call(sender, 'message:send', { groupCode: ref.group, clientKey: 'p1', message: 'Call me on +48 601 234 567' });
    expect(ack.message.offPlatform).toBe(true);
    expect((await live).offPlatform).toBe(true);

    const plain = (await send(provider, ref.group, 'The price is 1 200 zł, deadline 12.03.2026').expect(201)).body;
    expect(plain.offPlatform).toBeUndefined();
    const page = await newest(customer, ref.group);
    expect(page.filter((m) => m.offPlatform).map((m) => m.message)).toEqual(['Call me on +48 601 234 567']);
  });

  it('marks Polish requests to pay outside Parley, and an edit that adds contact details', async () => {
    const ref = await offerIn(t, OfferStatus.FinalOffer, customer, provider);
    expect((await send(customer, ref.group, 'Zapłać mi bezpośrednio, BLIK na numer').expect(201)).body.offPlatform).toBe(true);
    const sent = (await send(provider, ref.group, 'ok, I will write later').expect(201)).body;
    expect(sent.offPlatform).toBeUndefined();
    const edited = await t
      .http()
      .patch(`/api/message/groups/${ref.group}/messages/${sent.code}`)
      .set(as(provider))
      .send({ message: 'write to jan@example.com' })
      .expect(200);
    expect(edited.body.offPlatform).toBe(true);
    const back = await t.http().patch(`/api/message/groups/${ref.group}/messages/${sent.code}`).set(as(provider)).send({ message: 'never mind' }).expect(200);
    expect(back.body.offPlatform).toBeUndefined();
  });

  it('does not mark once the offer is Agreed, nor in chats that are not an offer', async () => {
    const agreed = await offerIn(t, OfferStatus.Agreed, customer, provider);
    expect((await send(provider, agreed.group, 'Call me on +48 601 234 567 about the delivery').expect(201)).body.offPlatform).toBeUndefined();
    const direct = await createGroup(t, [customer, provider]);
    expect((await send(provider, direct, 'my number is 601 234 567').expect(201)).body.offPlatform).toBeUndefined();
  });
});
