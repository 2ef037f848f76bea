import { DataSource } from 'typeorm';
import { OfferStatus } from '#shared/contracts/offers';
import { Role } from '#shared/contracts/roles';
import { createGroup, createInstance, createUser, TestUser } from '../factories';
import { closeAllSockets, connect, ListeningApp, listenTestApp, next } from '../utils/sockets';
import { as, move, offerIn } from './marketplace.helpers';

describe('reports and blocks', () => {
  let t: ListeningApp;
  let alice: TestUser, bob: TestUser, carol: TestUser, admin: TestUser, foreignAdmin: TestUser;
  const send = async (u: TestUser, group: string, message: string) =>
    (await t.http().post(`/api/message/groups/${group}`).set(as(u)).send({ message }).expect(201)).body as { code: string; seq: number };
  const report = (u: TestUser, body: object) => t.http().post('/api/reports').set(as(u)).send(body);
  const queue = (u: TestUser, status = 'open') => t.http().get(`/api/admin/reports?status=${status}`).set(as(u));
  const resolve = (u: TestUser, code: string, body: object) => t.http().post(`/api/admin/reports/${code}/resolve`).set(as(u)).send(body);
  const count = async (table: string) => (await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number;

  beforeAll(async () => {
    t = await listenTestApp();
    const other = await createInstance(t);
    [alice, bob, carol, admin, foreignAdmin] = await Promise.all([
      createUser(t),
      createUser(t),
      createUser(t),
      createUser(t, { role: Role.InstanceAdmin }),
      createUser(t, { role: Role.InstanceAdmin, instanceId: other.id }),
    ]);
  });
  afterEach(() => closeAllSockets());
  afterAll(() => t.close());

  it('takes a report of a message to the moderators in scope with its context; deleting it is audited and the reporter is told', async () => {
    const group = await createGroup(t, [alice, bob]);
    for (const text of ['one', 'two', 'three']) await send(bob, group, text);
    const bad = await send(bob, group, 'you are an idiot');
    await send(alice, group, 'please stop');

    const created = await report(alice, { groupCode: group, messageCode: bad.code, reason: 'harassment', note: ' rude ' }).expect(201);
    expect(created.body).toMatchObject({
      reason: 'harassment',
      note: 'rude',
      status: 'open',
      action: null,
      messageCode: bad.code,
      reported: { code: bob.user.code },
    });

    // Another instance's admin sees nothing of it, nor may act on it.
    expect((await queue(foreignAdmin).expect(200)).body.reports.map((r: { code: string }) => r.code)).not.toContain(created.body.code);
    expect((await resolve(foreignAdmin, created.body.code, { action: 'dismiss' }).expect(404)).body).toEqual({ code: 404, message: 'REPORT.NOT_FOUND' });
    // A user is no moderator.
    await queue(carol).expect(403);

    const item = (await queue(admin).expect(200)).body.reports.find((r: { code: string }) => r.code === created.body.code);
    expect(item.reporter.code).toBe(alice.user.code);
    expect(item.context.map((m: { message: string }) => m.message)).toEqual(['one', 'two', 'three', 'you are an idiot', 'please stop']);

    const sa = await connect(t.url, alice.token);
    const told = next(sa, 'report:resolved', (p) => p.code === created.body.code);
    const done = await resolve(admin, created.body.code, { action: 'delete' }).expect(201);
    expect(done.body).toMatchObject({ status: 'resolved', action: 'delete', messageDeletedNow: true, resolvedBy: { code: admin.user.code } });
    expect(await told).toEqual({ code: created.body.code, action: 'delete', reason: 'harassment' });
    // The context keeps the message as it was reported.
    expect(done.body.context[3]).toMatchObject({ message: 'you are an idiot', deleted: false });
    const page = (await t.http().post(`/api/message/groups/${group}/messages`).set(as(alice)).send({}).expect(200)).body.messages;
    expect(page.find((m: { code: string }) => m.code === bad.code).deleted).toBe(true);

    const audit = (await t.http().get('/api/admin/audit').set(as(admin)).expect(200)).body.entries;
    expect(audit.find((e: { action: string }) => e.action === 'report.delete')).toMatchObject({
      actorCode: admin.user.code,
      messageCode: bad.code,
      details: { report: created.body.code, reason: 'harassment', reported: bob.user.code, reporter: alice.user.code },
    });
    expect(audit.find((e: { action: string; messageCode: string }) => e.action === 'message.delete' && e.messageCode === bad.code)).toBeDefined();
    expect((await t.http().get('/api/reports/mine').set(as(alice)).expect(200)).body[0]).toMatchObject({ code: created.body.code, action: 'delete' });

    // Resolved once: a second action changes nothing.
    expect((await resolve(admin, created.body.code, { action: 'dismiss' }).expect(409)).body).toEqual({ code: 409, message: 'REPORT.ALREADY_RESOLVED' });
  });

  it('refuses bad reports with one clear error each and stores nothing', async () => {
    const group = await createGroup(t, [alice, bob]);
    const outside = await createGroup(t, [bob, carol]);
    const mine = await send(alice, group, 'mine');
    const theirs = await send(bob, group, 'hello');
    const hidden = await send(bob, outside, 'not for alice');
    const before = await count('report');
    const cases: [object, number, object][] = [
      [{ groupCode: outside, messageCode: hidden.code, reason: 'spam' }, 404, { message: 'REPORT.MESSAGE_NOT_FOUND' }],
      [{ groupCode: group, messageCode: 'nosuchmessage', reason: 'spam' }, 404, { message: 'REPORT.MESSAGE_NOT_FOUND' }],
      [{ groupCode: group, messageCode: mine.code, reason: 'spam' }, 422, { data: { brokenRules: ['REPORT.OWN_MESSAGE'] } }],
      [{ userCode: alice.user.code, reason: 'spam' }, 422, { data: { brokenRules: ['REPORT.SELF'] } }],
      [{ userCode: 'nosuchuser', reason: 'spam' }, 404, { message: 'REPORT.USER_NOT_FOUND' }],
      [{ userCode: foreignAdmin.user.code, reason: 'spam' }, 404, { message: 'REPORT.USER_NOT_FOUND' }],
      [{ groupCode: group, messageCode: theirs.code, userCode: bob.user.code, reason: 'spam' }, 422, { data: { brokenRules: ['REPORT.MESSAGE_OR_USER'] } }],
      [{ groupCode: group, messageCode: theirs.code, reason: 'because' }, 422, { message: 'SHARED.ERROR.VALIDATION' }],
      [{ groupCode: group, messageCode: theirs.code, reason: 'spam', note: 'x'.repeat(1001) }, 422, { message: 'SHARED.ERROR.VALIDATION' }],
    ];
    for (const [body, status, error] of cases) {
      const res = await report(alice, body);
      expect({ body, status: res.status }).toEqual({ body, status });
      expect(res.body).toMatchObject({ code: status, ...error });
    }
    expect(await count('report')).toBe(before);

    await report(alice, { groupCode: group, messageCode: theirs.code, reason: 'spam' }).expect(201);
    expect((await report(alice, { groupCode: group, messageCode: theirs.code, reason: 'scam' }).expect(409)).body).toEqual({
      code: 409,
      message: 'REPORT.ALREADY_REPORTED',
    });
    await report(alice, { userCode: bob.user.code, reason: 'scam' }).expect(201);
    await report(alice, { userCode: bob.user.code, reason: 'scam' }).expect(409);
    expect(await count('report')).toBe(before + 2);
  });

  it('warns and suspends a reported person: audited; a suspended user is refused until the suspension ends', async () => {
    const dave = await createUser(t);
    const warned = (await report(alice, { userCode: dave.user.code, reason: 'scam' }).expect(201)).body;
    const sd = await connect(t.url, dave.token);
    const warning = next(sd, 'moderation:warning');
    await resolve(admin, warned.code, { action: 'warn' }).expect(201);
    expect(await warning).toMatchObject({ reason: 'scam' });

    const again = (await report(carol, { userCode: dave.user.code, reason: 'scam' }).expect(201)).body;
    expect((await resolve(admin, again.code, { action: 'delete' }).expect(422)).body.data.brokenRules).toEqual(['REPORT.NO_MESSAGE']);
    expect((await resolve(admin, again.code, { action: 'suspend', days: 0 }).expect(422)).body.message).toBe('SHARED.ERROR.VALIDATION');
    await t.http().get('/api/me').set(as(dave)).expect(200);
    await resolve(admin, again.code, { action: 'suspend', days: 3 }).expect(201);
    await t.http().get('/api/me').set(as(dave)).expect(401);
    const audit = (await t.http().get('/api/admin/audit').set(as(admin)).expect(200)).body.entries;
    expect(audit.find((e: { action: string }) => e.action === 'report.suspend').details).toMatchObject({ report: again.code, days: 3 });
    expect(audit.find((e: { action: string }) => e.action === 'report.warn').details).toMatchObject({ report: warned.code });

    // Moderators are not suspended through a report.
    const onAdmin = (await report(alice, { userCode: admin.user.code, reason: 'other' }).expect(201)).body;
    expect((await resolve(admin, onAdmin.code, { action: 'suspend' }).expect(403)).body.message).toBe('REPORT.CANNOT_SUSPEND_MODERATOR');
    await resolve(admin, onAdmin.code, { action: 'dismiss' }).expect(201);
  });

  it('tells a warned user who was away on their next visit: one warning per pile, with the code the live one carries', async () => {
    const erin = await createUser(t);
    const warnings = () => t.http().get('/api/reports/warnings/mine').set(as(erin)).expect(200);
    expect((await warnings()).body).toEqual([]);
    const first = (await report(alice, { userCode: erin.user.code, reason: 'spam' }).expect(201)).body;
    await report(carol, { userCode: erin.user.code, reason: 'scam' }).expect(201);
    await resolve(admin, first.code, { action: 'warn' }).expect(201);

    const away = (await warnings()).body;
    expect(away).toEqual([{ code: expect.any(String), reason: expect.any(String), at: expect.any(String) }]);
    const se = await connect(t.url, erin.token);
    const live = next(se, 'moderation:warning');
    const second = (await report(bob, { userCode: erin.user.code, reason: 'harassment' }).expect(201)).body;
    await resolve(admin, second.code, { action: 'warn' }).expect(201);
    expect(await live).toMatchObject({ code: second.code, reason: 'harassment' });
    expect((await warnings()).body.map((w: { code: string }) => w.code)).toEqual([second.code, away[0].code]);
    // Only the warned person's own warnings; a dismissed report is no warning.
    const dismissed = (await report(alice, { userCode: erin.user.code, reason: 'other' }).expect(201)).body;
    await resolve(admin, dismissed.code, { action: 'dismiss' }).expect(201);
    expect((await warnings()).body).toHaveLength(2);
    expect((await t.http().get('/api/reports/warnings/mine').set(as(alice)).expect(200)).body).toEqual([]);
  });

  it('closes the pile: resolving one report resolves the other open reports of the same message, each audited and told', async () => {
    const gina = await createUser(t);
    const group = await createGroup(t, [alice, bob, carol, gina]);
    const bad = await send(bob, group, 'send me your card number');
    const other = await send(bob, group, 'a different message');
    const [ra, rc, rg] = await Promise.all(
      [alice, carol, gina].map(async (u) => (await report(u, { groupCode: group, messageCode: bad.code, reason: 'scam' }).expect(201)).body.code as string),
    );
    const untouched = (await report(alice, { groupCode: group, messageCode: other.code, reason: 'spam' }).expect(201)).body.code as string;
    const person = (await report(carol, { userCode: bob.user.code, reason: 'scam' }).expect(201)).body.code as string;

    const [sa, sc, sg] = await Promise.all([alice, carol, gina].map((u) => connect(t.url, u.token)));
    const told = Promise.all([
      next(sa, 'report:resolved', (p) => p.code === ra),
      next(sc, 'report:resolved', (p) => p.code === rc),
      next(sg, 'report:resolved', (p) => p.code === rg),
    ]);
    // Two moderators race on two reports of the pile: one wins, the other is told it is resolved.
    const results = await Promise.all([resolve(admin, ra, { action: 'delete' }), resolve(admin, rg, { action: 'dismiss' })]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const winner = results.find((r) => r.status === 201)!.body as { action: string };
    expect(await told).toEqual([ra, rc, rg].map((code) => ({ code, action: winner.action, reason: 'scam' })));

    const open = (await queue(admin).expect(200)).body.reports.map((r: { code: string }) => r.code);
    expect(open).not.toEqual(expect.arrayContaining([ra]));
    expect(open.filter((c: string) => [ra, rc, rg].includes(c))).toEqual([]);
    expect(open).toEqual(expect.arrayContaining([untouched, person]));
    const audit = (await t.http().get('/api/admin/audit').set(as(admin)).expect(200)).body.entries as {
      action: string;
      details: { report: string; reporter: string };
    }[];
    const pileAudit = audit.filter((e) => [ra, rc, rg].includes(e.details?.report));
    expect(pileAudit.map((e) => [e.action, e.details.report, e.details.reporter]).sort()).toEqual(
      [
        [`report.${winner.action}`, ra, alice.user.code],
        [`report.${winner.action}`, rc, carol.user.code],
        [`report.${winner.action}`, rg, gina.user.code],
      ].sort(),
    );
    expect((await t.http().get('/api/reports/mine').set(as(carol)).expect(200)).body.find((r: { code: string }) => r.code === rc)).toMatchObject({
      status: 'resolved',
      action: winner.action,
    });

    // A person's reports make a pile of their own: warning through one warns once and closes the other.
    const second = (await report(gina, { userCode: bob.user.code, reason: 'harassment' }).expect(201)).body.code as string;
    const sb = await connect(t.url, bob.token);
    const warnings: unknown[] = [];
    sb.on('moderation:warning', (w: unknown) => warnings.push(w));
    const ginaTold = next(sg, 'report:resolved', (p) => p.code === second);
    await resolve(admin, person, { action: 'warn' }).expect(201);
    expect(await ginaTold).toEqual({ code: second, action: 'warn', reason: 'harassment' });
    expect(warnings).toHaveLength(1);
    await resolve(admin, untouched, { action: 'dismiss' }).expect(201);
  });

  it('lifts a suspension early: moderators in scope only, audited; bad input a clear error with nothing changed', async () => {
    const hank = await createUser(t);
    const lift = (u: TestUser, code: string) => t.http().post(`/api/admin/reports/users/${code}/unsuspend`).set(as(u));
    const suspendedUntil = async () =>
      (await t.app.get(DataSource).query(`SELECT suspended_until FROM "user" WHERE id = $1`, [hank.user.id]))[0].suspended_until as Date | null;

    expect((await lift(admin, hank.user.code).expect(409)).body).toEqual({ code: 409, message: 'REPORT.NOT_SUSPENDED' });
    const r = (await report(alice, { userCode: hank.user.code, reason: 'scam' }).expect(201)).body.code as string;
    const done = (await resolve(admin, r, { action: 'suspend', days: 5 }).expect(201)).body;
    expect(new Date(done.reportedSuspendedUntil).getTime()).toBeGreaterThan(Date.now() + 4 * 86_400_000);
    await t.http().get('/api/me').set(as(hank)).expect(401);
    const until = await suspendedUntil();

    expect((await lift(admin, 'nosuchuser').expect(404)).body).toEqual({ code: 404, message: 'REPORT.USER_NOT_FOUND' });
    expect((await lift(foreignAdmin, hank.user.code).expect(404)).body).toEqual({ code: 404, message: 'REPORT.USER_NOT_FOUND' });
    await lift(carol, hank.user.code).expect(403);
    expect(await suspendedUntil()).toEqual(until);
    await t.http().get('/api/me').set(as(hank)).expect(401);

    expect((await lift(admin, hank.user.code).expect(201)).body).toEqual({
      code: hank.user.code,
      name: hank.user.name,
      surname: hank.user.surname,
      suspendedUntil: null,
    });
    await t.http().get('/api/me').set(as(hank)).expect(200);
    expect((await lift(admin, hank.user.code).expect(409)).body.message).toBe('REPORT.NOT_SUSPENDED');
    const resolved = (await queue(admin, 'resolved').expect(200)).body.reports.find((x: { code: string }) => x.code === r);
    expect(resolved.reportedSuspendedUntil).toBeNull();
    const audit = (await t.http().get('/api/admin/audit').set(as(admin)).expect(200)).body.entries;
    expect(audit.filter((e: { action: string; details: { user: string } }) => e.action === 'user.unsuspend' && e.details.user === hank.user.code)).toEqual([
      expect.objectContaining({ actorCode: admin.user.code, details: { user: hank.user.code, until: until!.toISOString() } }),
    ]);
  });

  it('blocks: no new direct chat from the blocked user, who is not told; shared chats and agreed offers go on', async () => {
    const erin = await createUser(t);
    const frank = await createUser(t);
    const shared = await createGroup(t, [erin, frank, carol]);
    await t.http().put(`/api/blocks/${frank.user.code}`).set(as(erin)).expect(204);
    await t.http().put(`/api/blocks/${frank.user.code}`).set(as(erin)).expect(204);
    expect((await t.http().get('/api/blocks').set(as(erin)).expect(200)).body).toEqual([
      { code: frank.user.code, name: frank.user.name, surname: frank.user.surname, blockedAt: expect.any(String) },
    ]);

    const start = (u: TestUser, other: TestUser) =>
      t
        .http()
        .put('/api/message/groups')
        .set(as(u))
        .send({ userList: [other.user.code] });
    expect((await start(frank, erin).expect(403)).body).toEqual({ code: 403, message: 'CHAT.CANNOT_START' });
    // The blocker may still start one, and the blocked user may then write in it (the blocker's client collapses it).
    const direct = (await start(erin, frank).expect(200)).body.group.code;
    await send(frank, direct, 'hi');
    await send(frank, shared, 'in the group');

    const offer = await offerIn(t, OfferStatus.Agreed, erin, frank);
    await t.http().put(`/api/blocks/${frank.user.code}`).set(as(erin)).expect(204);
    await send(frank, offer.group, 'the work is on its way');
    await move(t, frank, offer, 'finalizeRequest').expect(200);

    expect((await t.http().put(`/api/blocks/${erin.user.code}`).set(as(erin)).expect(422)).body.data.brokenRules).toEqual(['BLOCK.SELF']);
    expect((await t.http().put('/api/blocks/nosuchuser').set(as(erin)).expect(404)).body).toEqual({ code: 404, message: 'BLOCK.USER_NOT_FOUND' });
    await t.http().put(`/api/blocks/${foreignAdmin.user.code}`).set(as(erin)).expect(404);
    // The blocked user's view shows no block.
    expect((await t.http().get('/api/blocks').set(as(frank)).expect(200)).body).toEqual([]);

    await t.http().delete(`/api/blocks/${frank.user.code}`).set(as(erin)).expect(204);
    expect((await t.http().get('/api/blocks').set(as(erin)).expect(200)).body).toEqual([]);
  });

  it('blocks: the blocked user cannot add the blocker to a group, and is not told why; others still can', async () => {
    const [gina, hugo] = await Promise.all([createUser(t), createUser(t)]);
    const group = await createGroup(t, [hugo, carol]);
    await t.http().put(`/api/blocks/${hugo.user.code}`).set(as(gina)).expect(204);
    const add = (u: TestUser, who: TestUser[]) =>
      t
        .http()
        .post(`/api/message/group/${group}/participants`)
        .set(as(u))
        .send({ participants: who.map((w) => w.user.code) });
    const people = async () => (await t.http().get(`/api/message/groups/${group}`).set(as(carol)).expect(200)).body.participants.length as number;

    const before = await people();
    expect((await add(hugo, [gina]).expect(403)).body).toEqual({ code: 403, message: 'CHAT.CANNOT_START' });
    expect((await add(hugo, [bob, gina]).expect(403)).body).toEqual({ code: 403, message: 'CHAT.CANNOT_START' });
    expect(await people()).toBe(before);
    // Someone else may add the blocker; once they are in, adding them again changes nothing and reveals nothing.
    await add(carol, [gina]).expect(200);
    await add(hugo, [gina]).expect(200);
    expect(await people()).toBe(before + 1);
  });
});
