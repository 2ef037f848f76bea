import { OfferStatus } from '#shared/contracts/offers';
import { TestUser } from '../factories';
import { TestApp } from '../utils/create-app';

export const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });

/** A deadline `days` ahead, as UTC ISO. */
export const future = (days = 30) => new Date(Date.now() + days * 86_400_000).toISOString();

export const version = (lang: string, extra: Record<string, unknown> = {}) => ({
  lang,
  title: `Title in ${lang}`,
  description: `A long enough description written in ${lang}.`,
  ...extra,
});

/** A job posted by this customer through the API; returns its code. */
export async function postJob(t: TestApp, customer: TestUser, body: Record<string, unknown> = {}): Promise<string> {
  const res = await t
    .http()
    .post('/api/job')
    .set(as(customer))
    .send({ deadline: future(60), versions: [version('eng')], ...body })
    .expect(201);
  return res.body.code;
}

export interface OfferRef {
  job: string;
  offer: string;
  group: string;
}

/** An offer (Initial) by this provider on the job; returns its codes. */
export async function makeOffer(t: TestApp, provider: TestUser, job: string): Promise<OfferRef> {
  const res = await t.http().post(`/api/jobs/${job}/offers`).set(as(provider)).send({}).expect(201);
  return { job, offer: res.body.code, group: res.body.groupCode };
}

export const price = (amount = '120.50', currency = 'USD') => ({ price: { amount, currency }, deadline: future(10) });

/** The HTTP call of each party move: method, path suffix and body. */
export const CALLS = {
  update: { method: 'put', path: '', body: price() },
  final: { method: 'post', path: '/final', body: {} },
  choose: { method: 'post', path: '/choose', body: { allowForMoreOffers: true } },
  reapprove: { method: 'post', path: '/reapprove', body: {} },
  finalizeRequest: { method: 'post', path: '/finalizeRequest', body: {} },
  approveFinalizeRequest: { method: 'put', path: '/ApproveFinalizeRequest', body: {} },
  pay: { method: 'post', path: '/pay', body: { reference: 'bank transfer 1' } },
  confirmPayment: { method: 'post', path: '/confirmPayment', body: {} },
  disputePayment: { method: 'post', path: '/disputePayment', body: {} },
  withdraw: { method: 'post', path: '/withdraw', body: {} },
  reject: { method: 'post', path: '/reject', body: {} },
} as const;

export type PartyCallName = keyof typeof CALLS;

/** Makes a party move over HTTP; resolves with the response (no status assertion). */
export function move(t: TestApp, who: TestUser, ref: OfferRef, call: PartyCallName, headers: Record<string, string> = {}, body?: object) {
  const c = CALLS[call];
  const url = `/api/jobs/${ref.job}/offers/${ref.offer}${c.path}`;
  const req = c.method === 'put' ? t.http().put(url) : t.http().post(url);
  return req.set({ ...as(who), ...headers }).send(body ?? c.body);
}

/** The happy path's moves, each with the party that makes it and where it leads. */
export const HAPPY_PATH: { call: PartyCallName; by: 'provider' | 'customer'; to: OfferStatus }[] = [
  { call: 'update', by: 'provider', to: OfferStatus.Proposal },
  { call: 'final', by: 'provider', to: OfferStatus.FinalOffer },
  { call: 'choose', by: 'customer', to: OfferStatus.CustomerApproved },
  { call: 'reapprove', by: 'provider', to: OfferStatus.Agreed },
  { call: 'finalizeRequest', by: 'provider', to: OfferStatus.FinalizeRequested },
  { call: 'approveFinalizeRequest', by: 'customer', to: OfferStatus.PaymentPending },
  { call: 'pay', by: 'customer', to: OfferStatus.PaymentDeclared },
  { call: 'confirmPayment', by: 'provider', to: OfferStatus.Closed },
];

/** A fresh offer driven along the happy path until it reaches `status`. */
export async function offerIn(t: TestApp, status: OfferStatus, customer: TestUser, provider: TestUser, job?: string): Promise<OfferRef> {
  const ref = await makeOffer(t, provider, job ?? (await postJob(t, customer)));
  for (const step of HAPPY_PATH) {
    if (status === OfferStatus.Initial) break;
    const res = await move(t, step.by === 'provider' ? provider : customer, ref, step.call);
    if (res.status !== 200) throw new Error(`${step.call}: ${res.status} ${JSON.stringify(res.body)}`);
    if (step.to === status) break;
  }
  return ref;
}
