import { DataSource } from 'typeorm';
import { createGroup, createUser, TestUser } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';

/**
 * Counts are computed per group as the seqs after the marker minus the deleted and the reader's own live
 * messages there (unreadSql). They must equal counting the messages themselves, with every kind that doesn't
 * count in the way: deleted ones (others' and own), own live ones after the marker (only seeded data has those),
 * and system messages (no author), which do count.
 */
describe('unread count: exact per group', () => {
  let t: TestApp;
  let a: TestUser, b: TestUser, c: TestUser;
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });
  const db = () => t.app.get(DataSource);

  beforeAll(async () => {
    t = await createTestApp();
    [a, b, c] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
  });
  afterAll(() => t.close());

  /** The count as the messages themselves say it: live, after the marker, not the reader's. */
  async function counted(group: string, user: TestUser): Promise<number> {
    const [row] = await db().query(
      `SELECT count(*)::int AS n FROM chat_message m JOIN chat_group g ON g.id = m.group_id
       JOIN chat_participant p ON p.group_id = g.id AND p.user_id = $2
       WHERE g.code = $1 AND m.seq > p.read_seq AND m.deleted_at IS NULL AND m.author_id IS DISTINCT FROM p.user_id`,
      [group, user.user.id],
    );
    return row.n;
  }

  async function seed(group: string): Promise<void> {
    // seq 1..40: b writes, a every 5th, c every 7th, no author at 11; 3, 12 (b's), 15 (a's) and 21 (c's) deleted.
    await db().query(
      `INSERT INTO chat_message (code, group_id, seq, author_id, type, text, deleted_at)
       SELECT substr(md5(random()::text || s), 1, 16), g.id, s,
              CASE WHEN s = 11 THEN NULL WHEN s % 5 = 0 THEN $2::uuid WHEN s % 7 = 0 THEN $4::uuid ELSE $3::uuid END, 1, 'm' || s,
              CASE WHEN s IN (3, 12, 15, 21) THEN now() END
       FROM chat_group g, generate_series(1, 40) s WHERE g.code = $1`,
      [group, a.user.id, b.user.id, c.user.id],
    );
    await db().query(`UPDATE chat_group SET last_seq = 40, last_message_at = now() WHERE code = $1`, [group]);
    await db().query(
      `UPDATE chat_participant p SET read_seq = CASE WHEN p.user_id = $2 THEN 2 WHEN p.user_id = $3 THEN 0 ELSE 30 END
       FROM chat_group g WHERE g.id = p.group_id AND g.code = $1`,
      [group, a.user.id, b.user.id],
    );
  }

  it('answers what counting the messages answers, on the count, the group list and a read', async () => {
    const group = await createGroup(t, [a, b, c]);
    await seed(group);

    for (const u of [a, b, c]) {
      const expected = await counted(group, u);
      expect(expected).toBeGreaterThan(0);
      const rest = (await t.http().get('/api/message/UnreadCount').set(as(u)).expect(200)).body;
      expect(rest).toEqual({ total: expected, groups: { [group]: expected } });
      const list = (await t.http().get('/api/message/groups').set(as(u)).expect(200)).body;
      expect(list.groups.find((g: { code: string }) => g.code === group)?.unread).toBe(expected);
    }

    const read = (await t.http().post(`/api/message/groups/${group}/read`).set(as(a)).send({ seq: 16 }).expect(200)).body;
    const left = await counted(group, a);
    expect(read.unread).toEqual({ total: left, groups: { [group]: left } });

    await db().query(`UPDATE chat_message m SET deleted_at = now() FROM chat_group g WHERE g.id = m.group_id AND g.code = $1 AND m.seq > 16`, [group]);
    expect((await t.http().get('/api/message/UnreadCount').set(as(a)).expect(200)).body).toEqual({ total: 0, groups: {} });
    expect(await counted(group, a)).toBe(0);
  });
});
