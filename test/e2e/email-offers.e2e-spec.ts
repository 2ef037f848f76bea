import { DataSource } from 'typeorm';
import { OfferStatus } from '#shared/contracts/offers';
import { JobName } from '#shared/contracts/queues';
import { JobService } from '#shared/queue/job.service';
import { createUser, TestUser } from '../factories';
import { EmailStack, emailStack } from '../utils/email-stack';
import { ListeningApp } from '../utils/sockets';
import { TestSmtp } from '../utils/test-smtp';
import { pause, waitFor } from '../utils/wait';
import { offerTimerJobId } from '../../workers/src/timers/offer-timers';
import { as, move, OfferRef, offerIn } from './marketplace.helpers';

const WINDOW_MS = 1500;

describe('e-mail about offer moves and payments due (a real SMTP server in the test)', () => {
  let stack: EmailStack;
  let t: ListeningApp;
  let smtp: TestSmtp;

  beforeAll(async () => {
    stack = await emailStack('email-offers', {
      EMAIL_OFFER_DELAY_MS: String(WINDOW_MS),
      EMAIL_UNREAD_DELAY_MS: String(WINDOW_MS),
      EMAIL_ATTEMPTS: '4',
    });
    ({ t, smtp } = stack);
  });
  afterAll(() => stack?.close());

  const db = () => t.app.get(DataSource);
  const offerUrl = (ref: OfferRef) => `https://parley.test/jobs/${ref.job}/offers/${ref.offer}`;
  const moveOk = async (who: TestUser, ref: OfferRef, call: Parameters<typeof move>[3]) => {
    const res = await move(t, who, ref, call);
    if (res.status !== 200) throw new Error(`${call}: ${res.status} ${JSON.stringify(res.body)}`);
  };
  const offerEmailsOff = async (u: TestUser) => {
    const all = { messages: true, offers: true, payments: true };
    await t
      .http()
      .put('/api/me/notifications')
      .set(as(u))
      .send({ push: all, email: { ...all, offers: false }, quietHours: null })
      .expect(200);
  };
  // Lets the window and a few scans pass, so an e-mail that was going to go out has: before a check that none did.
  const pastTheWindow = () => pause(WINDOW_MS + 1500);
  const settle = (u: TestUser) => waitFor(async () => (await stack.emailsOf(u)).every((e) => e.status !== 'pending'), { timeoutMs: 15_000 });
  const unsubscribeLink = (mail: Parameters<typeof TestSmtp.header>[0]) => /<([^>]+)>/.exec(TestSmtp.header(mail, 'list-unsubscribe') ?? '')![1];
  /** Relays an offer's outbox row of this topic again, its e-mail record job gone: as after a lost Redis. */
  const replayRecord = async (ref: OfferRef, topic: string) => {
    const [{ id: outboxId }] = (await db().query(`SELECT id::text AS id FROM outbox WHERE topic = $1 AND payload->>'offerCode' = $2 ORDER BY id DESC LIMIT 1`, [
      topic,
      ref.offer,
    ])) as { id: string }[];
    await stack.worker.get(JobService).queue(JobName.RecordOfferEmail).remove(`outbox-${outboxId}`);
    await db().query(`UPDATE outbox SET dispatched_at = NULL WHERE id = $1`, [outboxId]);
    await waitFor(async () => (await db().query(`SELECT dispatched_at FROM outbox WHERE id = $1`, [outboxId]))[0].dispatched_at !== null, {
      message: 'the outbox row relayed again',
    });
  };
  /**
   * A controlled clock: the offer's real delayed timer job for this step of its current wait, made due now (as the
   * offer-timers test does); waits until the worker ran it and a server applied it.
   */
  async function timerNow(ref: OfferRef, key: string): Promise<void> {
    const [offer] = (await db().query(`SELECT id::text AS id, version FROM job_offer WHERE code = $1`, [ref.offer])) as { id: string; version: number }[];
    const queue = stack.worker.get(JobService).queue(JobName.FireOfferTimer);
    const job = await waitFor(() => queue.getJob(offerTimerJobId(offer.id, offer.version, key)), {
      until: (j) => j !== undefined,
      timeoutMs: 10_000,
      message: `the ${key} timer job`,
    });
    await waitFor(() => job!.getState(), { until: (state) => state === 'delayed', timeoutMs: 10_000 });
    await job!.promote();
    await waitFor(() => job!.getState(), { until: (state) => state === 'completed', timeoutMs: 15_000 });
  }

  it("e-mails the customer a final offer they have not answered, once, with a link straight to the offer, in text and HTML, and nothing about the offer's chat notes", async () => {
    const [customer, provider] = [await createUser(t), await createUser(t, { name: 'Piotr', surname: 'Nowak' })];
    const ref = await offerIn(t, OfferStatus.FinalOffer, customer, provider);

    await waitFor(() => smtp.to(customer.user.email).length === 1, { timeoutMs: 10_000 });
    const [mail] = smtp.to(customer.user.email);
    expect(mail.subject).toBe('Piotr Nowak sent a final offer for “Title in eng”');
    expect(mail.text).toContain('The offer (120.50 USD) is waiting for your choice.');
    expect(mail.text).toContain(`Open the offer: ${offerUrl(ref)}`);
    expect(mail.html).toContain(`<a href="${offerUrl(ref)}">Open the offer</a>`);
    expect(mail.text).toContain('Stop e-mails about offers');
    expect(TestSmtp.header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');

    // Never two for the same move, even when the move's outbox row is relayed again.
    const [{ id: outboxId }] = (await db().query(
      `SELECT id::text AS id FROM outbox WHERE topic = 'offer.status-changed' AND payload->>'offerCode' = $1 AND payload->>'to' = $2`,
      [ref.offer, String(OfferStatus.FinalOffer)],
    )) as { id: string }[];
    await stack.worker.get(JobService).queue(JobName.RecordOfferEmail).remove(`outbox-${outboxId}`);
    await db().query(`UPDATE outbox SET dispatched_at = NULL WHERE id = $1`, [outboxId]);
    await waitFor(async () => (await db().query(`SELECT dispatched_at FROM outbox WHERE id = $1`, [outboxId]))[0].dispatched_at !== null, {
      message: 'the outbox row relayed again',
    });
    await pastTheWindow();
    expect(smtp.to(customer.user.email)).toHaveLength(1);
    expect(await stack.emailsOf(customer)).toEqual([{ kind: 'offers', status: 'sent', reason: null, attempts: 1 }]);
    // The provider made every move and is waited for by nobody: nothing, not even an unread-messages e-mail for the notes.
    expect(smtp.to(provider.user.email)).toEqual([]);
    expect(await stack.emailsOf(provider)).toEqual([]);
  });

  it('sends nothing when the recipient moves the offer on within the window', async () => {
    const [customer, provider] = [await createUser(t), await createUser(t)];
    const ref = await offerIn(t, OfferStatus.FinalOffer, customer, provider);
    await moveOk(customer, ref, 'reject');
    await settle(customer);
    await pastTheWindow();
    expect(await stack.emailsOf(customer)).toEqual([{ kind: 'offers', status: 'skipped', reason: 'moved-on', attempts: 0 }]);
    expect(smtp.to(customer.user.email)).toEqual([]);
  });

  it('sends only the e-mail of the latest move when an offer comes back to the same status (a disputed payment, paid again)', async () => {
    const [customer, provider] = [await createUser(t), await createUser(t)];
    const ref = await offerIn(t, OfferStatus.PaymentDeclared, customer, provider);
    await moveOk(provider, ref, 'disputePayment');
    await moveOk(customer, ref, 'pay');
    await waitFor(() => smtp.to(provider.user.email).length === 1, { timeoutMs: 10_000 });
    await settle(provider);
    await pastTheWindow();
    expect(smtp.to(provider.user.email)).toHaveLength(1);
    const payments = (await stack.emailsOf(provider)).filter((e) => e.kind === 'payments');
    expect(payments).toEqual([
      { kind: 'payments', status: 'skipped', reason: 'moved-on', attempts: 0 },
      { kind: 'payments', status: 'sent', reason: null, attempts: 1 },
    ]);
  });

  it("e-mails a payment due to the customer and a declared payment to the provider, in each one's language; one-click unsubscribe switches off payments only", async () => {
    const customer = await createUser(t, { lang: 'pol' });
    const provider = await createUser(t);
    const ref = await offerIn(t, OfferStatus.PaymentPending, customer, provider);

    await waitFor(() => smtp.to(customer.user.email).some((m) => m.subject === 'Oczekuje na płatność – „Title in eng”'), { timeoutMs: 10_000 });
    const due = smtp.to(customer.user.email).find((m) => m.subject?.startsWith('Oczekuje'))!;
    expect(due.text).toContain('Oferta czeka na Twoją płatność: 120.50 USD.');
    expect(due.text).toContain(`Otwórz ofertę: ${offerUrl(ref)}`);
    expect(due.text).toContain('Nie wysyłaj mi e-maili o płatnościach');

    await moveOk(customer, ref, 'pay');
    const paidSubject = `${customer.user.name} ${customer.user.surname} says they paid for “Title in eng”`;
    await waitFor(() => smtp.to(provider.user.email).some((m) => m.subject === paidSubject), { timeoutMs: 10_000 });
    const declared = smtp.to(provider.user.email).find((m) => m.subject?.includes('says they paid'))!;
    expect(declared.text).toContain('Confirm the payment of 120.50 USD once it has arrived.');
    expect(declared.html).toContain(`<a href="${offerUrl(ref)}">`);

    const link = new URL(unsubscribeLink(declared));
    expect(link.origin + link.pathname).toBe('https://parley.test/api/email/unsubscribe');
    await t.http().post(`/api/email/unsubscribe${link.search}`).type('form').send('List-Unsubscribe=One-Click').expect(204);
    const settings = (await t.http().get('/api/me/notifications').set(as(provider)).expect(200)).body;
    expect(settings.email).toEqual({ messages: true, offers: true, payments: false });
  });

  it('records nothing for someone who switched e-mail about offers off', async () => {
    const [customer, provider] = [await createUser(t), await createUser(t)];
    await offerEmailsOff(customer);
    await offerIn(t, OfferStatus.FinalOffer, customer, provider);
    await pastTheWindow();
    expect(await stack.emailsOf(customer)).toEqual([]);
    expect(smtp.to(customer.user.email)).toEqual([]);
  });

  it("e-mails a timer's reminder to the party whose move it is, like a move: once, with the link and the one-click unsubscribe", async () => {
    const [customer, provider] = [await createUser(t), await createUser(t)];
    const ref = await offerIn(t, OfferStatus.FinalOffer, customer, provider);
    await waitFor(() => smtp.to(customer.user.email).length === 1, { timeoutMs: 10_000 });

    // Two days before the final offer lapses (14 days, reminded 2 before).
    await timerNow(ref, 'remind-12');
    await waitFor(() => smtp.to(customer.user.email).length === 2, { timeoutMs: 10_000 });
    const mail = smtp.to(customer.user.email)[1];
    expect(mail.subject).toBe('Reminder: the offer for “Title in eng” expires in 2 days');
    expect(mail.text).toContain('It is waiting for your move; without one, it closes by itself.');
    expect(mail.text).toContain(`Open the offer: ${offerUrl(ref)}`);
    expect(mail.html).toContain(`<a href="${offerUrl(ref)}">Open the offer</a>`);
    expect(mail.text).toContain('Stop e-mails about offers');
    expect(TestSmtp.header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');

    // Never two for the same reminder, even when its outbox row is relayed again.
    await replayRecord(ref, 'offer.reminded');
    await pastTheWindow();
    expect(smtp.to(customer.user.email)).toHaveLength(2);
    expect(await stack.emailsOf(customer)).toEqual([
      { kind: 'offers', status: 'sent', reason: null, attempts: 1 },
      { kind: 'offers', status: 'sent', reason: null, attempts: 1 },
    ]);
    expect(smtp.to(provider.user.email)).toEqual([]);
  });

  it('reminds of a payment still due in Polish as a payment; a reminder the payer acted on before it went out is not sent', async () => {
    const customer = await createUser(t, { lang: 'pol' });
    const provider = await createUser(t);
    const ref = await offerIn(t, OfferStatus.PaymentPending, customer, provider);
    await waitFor(() => smtp.to(customer.user.email).length === 1, { timeoutMs: 10_000 });

    await timerNow(ref, 'remind-3');
    await waitFor(() => smtp.to(customer.user.email).length === 2, { timeoutMs: 10_000 });
    const mail = smtp.to(customer.user.email)[1];
    expect(mail.subject).toBe('Przypomnienie: płatność za „Title in eng” czeka od 3 dni');
    expect(mail.text).toContain('Oferta wciąż czeka na Twoją płatność: 120.50 USD.');
    expect(mail.text).toContain(`Otwórz ofertę: ${offerUrl(ref)}`);
    expect(mail.html).toContain('<html lang="pl">');
    expect(mail.text).toContain('Nie wysyłaj mi e-maili o płatnościach');

    await timerNow(ref, 'remind-7');
    await moveOk(customer, ref, 'pay');
    // (the moves that brought the offer here, each at once moved on by the next, were e-mailed as offers: skipped)
    const payments = async () => (await stack.emailsOf(customer)).filter((e) => e.kind === 'payments');
    await waitFor(async () => (await payments()).length === 3, { timeoutMs: 10_000 });
    await settle(customer);
    expect((await payments()).map((e) => [e.kind, e.status, e.reason])).toEqual([
      ['payments', 'sent', null],
      ['payments', 'sent', null],
      ['payments', 'skipped', 'moved-on'],
    ]);
    expect(smtp.to(customer.user.email)).toHaveLength(2);
  });

  it('records no reminder e-mail for someone who switched that kind of e-mail off', async () => {
    const [customer, provider] = [await createUser(t), await createUser(t)];
    await offerEmailsOff(customer);
    const ref = await offerIn(t, OfferStatus.FinalOffer, customer, provider);
    await timerNow(ref, 'remind-12');
    await replayRecord(ref, 'offer.reminded');
    await pastTheWindow();
    expect(await stack.emailsOf(customer)).toEqual([]);
    expect(smtp.to(customer.user.email)).toEqual([]);
  });

  it('an unreachable SMTP server loses no e-mail still due and sends none that is no longer due, of either kind', async () => {
    const [customer, provider, waiting, actsMeanwhile] = [await createUser(t), await createUser(t), await createUser(t), await createUser(t)];
    const [reader, unread] = [await createUser(t), await createUser(t)];
    await smtp.stop();
    try {
      const stillDue = await offerIn(t, OfferStatus.FinalOffer, waiting, provider);
      const movedOn = await offerIn(t, OfferStatus.FinalOffer, actsMeanwhile, provider);
      const chat = async (other: TestUser) =>
        (
          await t
            .http()
            .put('/api/message/groups')
            .set(as(customer))
            .send({ userList: [other.user.code], createNewGroup: true })
            .expect(200)
        ).body.group.code as string;
      const [readChat, unreadChat] = [await chat(reader), await chat(unread)];
      const send = async (group: string) =>
        (await t.http().post(`/api/message/groups/${group}`).set(as(customer)).send({ message: 'still there?' }).expect(201)).body as { seq: number };
      const { seq } = await send(readChat);
      await send(unreadChat);

      // Every one of them is tried, and fails to connect, more often than EMAIL_ATTEMPTS (4) allows for a server
      // that answers: a server that does not answer spends none of them, and each stays pending.
      const triedOften = async (u: TestUser) => {
        const [email] = await stack.emailsOf(u);
        return email?.status === 'pending' && email.attempts >= 5;
      };
      await waitFor(async () => (await Promise.all([waiting, actsMeanwhile, reader, unread].map(triedOften))).every(Boolean), { timeoutMs: 30_000 });
      const errors = (await db().query(`SELECT DISTINCT last_error FROM email_message WHERE user_id = $1`, [waiting.user.id])) as { last_error: string }[];
      expect(errors[0].last_error).toMatch(/ECONNREFUSED|connect/i);

      // While it is away, one recipient acts on the offer and another reads the chat.
      await moveOk(actsMeanwhile, movedOn, 'choose');
      await t.http().post(`/api/message/groups/${readChat}/read`).set(as(reader)).send({ seq }).expect(200);
      await smtp.start();

      await waitFor(() => smtp.to(waiting.user.email).length === 1, { timeoutMs: 20_000 });
      await waitFor(() => smtp.to(unread.user.email).length === 1, { timeoutMs: 20_000 });
      expect(smtp.to(waiting.user.email)[0].text).toContain(offerUrl(stillDue));
      for (const u of [actsMeanwhile, reader]) await settle(u);
      expect((await stack.emailsOf(actsMeanwhile))[0]).toMatchObject({ kind: 'offers', status: 'skipped', reason: 'moved-on' });
      expect(await stack.emailsOf(reader)).toEqual([expect.objectContaining({ kind: 'messages', status: 'skipped', reason: 'read' })]);
      expect(smtp.to(actsMeanwhile.user.email)).toEqual([]);
      expect(smtp.to(reader.user.email)).toEqual([]);
    } finally {
      if (!smtp.running) await smtp.start();
    }
  }, 90_000);
});
