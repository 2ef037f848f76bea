import { ParsedMail } from 'mailparser';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { OfferStatus } from '#shared/contracts/offers';
import { signUnsubscribe } from '#shared/notifications/unsubscribe-token';
import { createUser, TestUser, uniqueEmail } from '../factories';
import { EmailStack, emailStack } from '../utils/email-stack';
import { ListeningApp } from '../utils/sockets';
import { TestSmtp } from '../utils/test-smtp';
import { pause, waitFor } from '../utils/wait';
import { offerIn } from './marketplace.helpers';

const WINDOW_MS = 1500;

describe('e-mail about unread messages (a real SMTP server in the test)', () => {
  let stack: EmailStack;
  let t: ListeningApp;
  let smtp: TestSmtp;

  beforeAll(async () => {
    stack = await emailStack('email-unread', { EMAIL_UNREAD_DELAY_MS: String(WINDOW_MS), EMAIL_ATTEMPTS: '4' });
    ({ t, smtp } = stack);
  });
  afterAll(() => stack?.close());

  const auth = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });

  async function chat(users: TestUser[], name?: string): Promise<string> {
    const res = await t
      .http()
      .put('/api/message/groups')
      .set(auth(users[0]))
      .send({ userList: users.slice(1).map((u) => u.user.code), createNewGroup: true })
      .expect(200);
    const code = res.body.group.code as string;
    if (name) await t.http().patch(`/api/message/groups/${code}`).set(auth(users[0])).send({ name }).expect(200);
    return code;
  }

  async function send(u: TestUser, group: string, message: string): Promise<{ seq: number }> {
    return (await t.http().post(`/api/message/groups/${group}`).set(auth(u)).send({ message }).expect(201)).body;
  }

  const emailsOf = async (u: TestUser) => (await stack.emailsOf(u)).map(({ status, reason, attempts }) => ({ status, reason, attempts }));

  /**
   * Lets the window and a few scans pass, so an e-mail that was going to be recorded has been: before a check that
   * none was.
   */
  const pastTheWindow = () => pause(WINDOW_MS + 1200);

  it('sends someone who does not read within the window exactly one e-mail that names every unread chat, text and HTML', async () => {
    const [alice, bob, carol] = [await createUser(t), await createUser(t), await createUser(t)];
    const first = await chat([alice, bob], 'Kitchen remodel');
    const second = await chat([carol, bob], 'Garden shed');
    await send(alice, first, 'Can you start on Monday?');
    await send(carol, second, 'Quote attached for the shed');

    await waitFor(() => smtp.to(bob.user.email).length === 1, { timeoutMs: 10_000 });
    const [mail] = smtp.to(bob.user.email);
    expect(mail.subject).toBe('You have unread messages in 2 chats');
    expect(mail.text).toContain('Can you start on Monday?');
    expect(mail.text).toContain('Quote attached for the shed');
    expect(mail.text).toContain(`https://parley.test/messages/${first}`);
    expect(mail.html).toContain('Kitchen remodel');
    expect(mail.html).toContain(`<a href="https://parley.test/messages/${second}">`);
    expect(mail.from?.value[0].address).toBe('no-reply@parley.test');
    expect(mail.headerLines.find((h) => h.key === 'list-unsubscribe-post')?.line).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(mail.headerLines.find((h) => h.key === 'list-unsubscribe')?.line.replace(/\r?\n[ \t]+/g, '')).toMatch(
      /^List-Unsubscribe:\s*<https:\/\/parley\.test\/api\/email\/unsubscribe\?token=[^>]+>$/,
    );

    // Never two for the same messages: later scans find nothing new.
    await pastTheWindow();
    expect(smtp.to(bob.user.email)).toHaveLength(1);
    expect(await emailsOf(bob)).toEqual([{ status: 'sent', reason: null, attempts: 1 }]);
    // Nobody is e-mailed about their own messages.
    expect(smtp.to(alice.user.email)).toEqual([]);
  });

  it('sends nothing to someone who read the message within the window', async () => {
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const group = await chat([alice, bob]);
    const { seq } = await send(alice, group, 'read me quickly');
    await t.http().post(`/api/message/groups/${group}/read`).set(auth(bob)).send({ seq }).expect(200);
    await pastTheWindow();
    expect(smtp.to(bob.user.email)).toEqual([]);
    expect(await emailsOf(bob)).toEqual([]);
  });

  it('sends nothing when the message is read after the e-mail was decided but before it went out', async () => {
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const group = await chat([alice, bob]);
    smtp.tempFailures = 1;
    // The first attempt meets a 451 (someone else's e-mail may take it: then this one is read before its first try).
    const { seq } = await send(alice, group, 'read between attempts');
    await waitFor(async () => (await emailsOf(bob)).length === 1, { timeoutMs: 10_000 });
    await t.http().post(`/api/message/groups/${group}/read`).set(auth(bob)).send({ seq }).expect(200);
    await waitFor(async () => ((await emailsOf(bob))[0]?.status ?? 'pending') !== 'pending', { timeoutMs: 10_000 });
    expect((await emailsOf(bob))[0]).toMatchObject({ status: 'skipped', reason: 'read' });
    expect(smtp.to(bob.user.email)).toEqual([]);
    smtp.tempFailures = 0;
  });

  it('sends nothing for a muted chat, nor to someone who switched e-mail for messages off', async () => {
    const [alice, bob, carol] = [await createUser(t), await createUser(t), await createUser(t)];
    const muted = await chat([alice, bob]);
    await t.http().put(`/api/message/groups/${muted}/notifications`).set(auth(bob)).send({ muted: true }).expect(200);
    const off = await chat([alice, carol]);
    const all = { messages: true, offers: true, payments: true };
    await t
      .http()
      .put('/api/me/notifications')
      .set(auth(carol))
      .send({ push: all, email: { ...all, messages: false }, quietHours: null })
      .expect(200);
    await send(alice, muted, 'muted chat');
    await send(alice, off, 'e-mail off');
    await pastTheWindow();
    expect(smtp.to(bob.user.email)).toEqual([]);
    expect(smtp.to(carol.user.email)).toEqual([]);
  });

  it("neither counts nor names a blocked user's messages, but does in their offer chat (the deal goes on)", async () => {
    const [alice, bob, carol] = [await createUser(t), await createUser(t), await createUser(t)];
    const offer = await offerIn(t, OfferStatus.Agreed, bob, alice);
    const direct = await chat([alice, bob]);
    const shared = await chat([alice, bob, carol], 'Shared group');
    await t.http().put(`/api/blocks/${alice.user.code}`).set(auth(bob)).expect(204);
    await send(alice, direct, 'blocked in the direct chat');
    await send(carol, shared, 'carol in the group');
    await send(alice, shared, 'blocked in the group');
    await send(alice, offer.group, 'the work is on its way');

    const unread = () => smtp.to(bob.user.email).filter((m) => m.subject?.startsWith('You have unread messages'));
    await waitFor(() => unread().length === 1, { timeoutMs: 10_000 });
    const [mail] = unread();
    expect(mail.subject).toBe('You have unread messages in 2 chats');
    expect(mail.text).toContain('Shared group (1 unread message)');
    expect(mail.text).toContain('carol in the group');
    expect(mail.text).toContain('the work is on its way');
    expect(mail.text).not.toContain('blocked in');
    expect(mail.text).not.toContain(`/messages/${direct}`);
  });

  it("speaks the recipient's language", async () => {
    const alice = await createUser(t);
    const bob = await createUser(t, { lang: 'pol' });
    const group = await chat([alice, bob]);
    await send(alice, group, 'Dzień dobry');
    await waitFor(() => smtp.to(bob.user.email).length === 1, { timeoutMs: 10_000 });
    const [mail] = smtp.to(bob.user.email);
    expect(mail.subject).toBe('Masz nieprzeczytane wiadomości w 1 czacie');
    expect(mail.text).toContain('Otwórz czat');
    expect(mail.text).toContain('Dzień dobry');
  });

  it('records a refused address as failed without holding the queue, and retries a temporary SMTP failure', async () => {
    const alice = await createUser(t);
    const bounced = await createUser(t, { email: `bounce.${uniqueEmail()}` });
    const later = await createUser(t);
    await send(alice, await chat([alice, bounced]), 'to nowhere');
    await send(alice, await chat([alice, later]), 'to somewhere');
    smtp.tempFailures = 1;
    await waitFor(() => smtp.to(later.user.email).length === 1, { timeoutMs: 15_000 });
    await waitFor(async () => (await emailsOf(bounced))[0]?.status === 'failed', { timeoutMs: 10_000 });
    expect(await emailsOf(bounced)).toEqual([expect.objectContaining({ status: 'failed', reason: 'rejected' })]);
    expect(smtp.to(bounced.user.email)).toEqual([]);
  });

  describe('one-click unsubscribe (RFC 8058)', () => {
    const tokenOf = (mail: ParsedMail) => {
      const line = mail.headerLines.find((h) => h.key === 'list-unsubscribe')!.line;
      return decodeURIComponent(/token=([^>]+)>/.exec(line.replace(/\r?\n[ \t]+/g, ''))![1]);
    };
    const settingsOf = async (u: TestUser) => (await t.http().get('/api/me/notifications').set(auth(u)).expect(200)).body;

    it('switches e-mail about messages off with the link of an e-mail, once; a replay, a forgery and an expired link change nothing', async () => {
      const [alice, bob] = [await createUser(t), await createUser(t)];
      await send(alice, await chat([alice, bob]), 'unsubscribe me');
      await waitFor(() => smtp.to(bob.user.email).length === 1, { timeoutMs: 10_000 });
      const token = tokenOf(smtp.to(bob.user.email)[0]);

      const [body, mac] = token.split('.');
      const forged = await t
        .http()
        .post('/api/email/unsubscribe')
        .query({ token: `${body}.${mac.slice(0, -2)}AA` })
        .type('form')
        .send('List-Unsubscribe=One-Click');
      expect(forged.status).toBe(400);
      expect(forged.body).toEqual({ code: 400, message: 'NOTIFICATIONS.UNSUBSCRIBE.INVALID' });
      const config = t.app.get<AppConfig>(APP_CONFIG);
      const expired = signUnsubscribe(config.JWT_SECRET, bob.user.id, 'messages', 1000, Date.now() - 10_000);
      await t.http().post('/api/email/unsubscribe').query({ token: expired }).expect(410, { code: 410, message: 'NOTIFICATIONS.UNSUBSCRIBE.EXPIRED' });
      await t.http().post('/api/email/unsubscribe').expect(400);
      expect((await settingsOf(bob)).email.messages).toBe(true);

      await t.http().post('/api/email/unsubscribe').query({ token }).type('form').send('List-Unsubscribe=One-Click').expect(204);
      expect((await settingsOf(bob)).email).toEqual({ messages: false, offers: true, payments: true });

      await t
        .http()
        .put('/api/me/notifications')
        .set(auth(bob))
        .send({ push: (await settingsOf(bob)).push, email: { messages: true, offers: true, payments: true }, quietHours: null })
        .expect(200);
      await t.http().post('/api/email/unsubscribe').query({ token }).expect(409, { code: 409, message: 'NOTIFICATIONS.UNSUBSCRIBE.USED' });
      expect((await settingsOf(bob)).email.messages).toBe(true);
    });
  });
});
