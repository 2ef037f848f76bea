/**
 * The hot path: membership check, gap-free seq, idempotent insert, the sender's read marker, the file
 * links and the outbox row, in ONE statement (one round trip). The group row lock taken by the seq bump
 * serialises senders per group, so seqs are gap-free; a failed statement rolls the bump back.
 */
export const INSERT_MESSAGE_SQL = `
WITH target AS (
  SELECT cg.id, cg.type FROM chat_group cg
  WHERE cg.code = $1 AND ($2::uuid IS NULL OR EXISTS (
    SELECT 1 FROM chat_participant p WHERE p.group_id = cg.id AND p.user_id = $2))
),
existing AS (
  SELECT m.id FROM chat_message m, target
  WHERE m.group_id = target.id AND m.author_id = $2 AND m.client_key = $7
),
bumped AS (
  UPDATE chat_group cg SET last_seq = cg.last_seq + 1, last_message_at = now()
  FROM target WHERE cg.id = target.id AND NOT EXISTS (SELECT 1 FROM existing)
  RETURNING cg.id, cg.last_seq
),
inserted AS (
  INSERT INTO chat_message (code, group_id, seq, author_id, type, text, lang, client_key, created_at, reply_to_id)
  SELECT $3, bumped.id, bumped.last_seq, $2, $4, $5, $6, $7, date_trunc('milliseconds', clock_timestamp()), $10::bigint FROM bumped
  RETURNING id, code, group_id, seq, type, text, lang, translation, client_key, created_at, deleted_at
),
read_marker AS (
  UPDATE chat_participant p SET read_seq = inserted.seq FROM inserted
  WHERE p.group_id = inserted.group_id AND p.user_id = $2 AND p.read_seq < inserted.seq
  RETURNING 1
),
linked_files AS (
  INSERT INTO chat_message_file (message_id, file_id, position)
  SELECT inserted.id, f.file_id, f.position - 1 FROM inserted, unnest($8::bigint[]) WITH ORDINALITY AS f(file_id, position)
  RETURNING file_id
),
files_bound AS (
  UPDATE file SET group_id = inserted.group_id FROM inserted
  WHERE file.id = ANY($8::bigint[]) AND file.group_id IS NULL
  RETURNING 1
),
outboxed AS (
  INSERT INTO outbox (topic, payload)
  SELECT 'message.created', jsonb_build_object('groupId', inserted.group_id, 'messageId', inserted.id, 'seq', inserted.seq)
  FROM inserted
  RETURNING id
)
SELECT i.*, $1::varchar AS group_code, u.code AS author_code, u.name AS author_name, u.surname AS author_surname,
       CASE WHEN u.gravatar THEN u.email END AS author_email, u.avatar_url AS author_avatar_url, $9::varchar[] AS file_codes, true AS created,
       (SELECT type FROM target) AS group_type,
       -- One primary-key lookup per participant (a join here may be planned as a scan of every user).
       (SELECT array_agg((SELECT pu.code FROM "user" pu WHERE pu.id = pp.user_id)) FROM chat_participant pp
        WHERE pp.group_id = i.group_id) AS participant_codes
FROM inserted i LEFT JOIN "user" u ON u.id = $2
UNION ALL
SELECT e.id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, false,
       (SELECT type FROM target), NULL
FROM existing e`;

/**
 * The hot path for a batch of messages without files (see ChatMessageInsertQueue): the same checks and writes
 * as INSERT_MESSAGE_SQL for every item, in one statement. Items are arrays ($1 group codes, $2 authors, $3 codes,
 * $4 types, $5 texts, $6 langs, $7 client keys); each answer row carries its item's `ord` (1-based).
 * Each group's seq moves once by its number of new messages, numbered in item order. The group rows are locked
 * in id order before they are bumped, so two batches that share groups (two server processes) never deadlock.
 * Items must not repeat a (group, author, client key): the caller answers repeats from the first one.
 */
export const INSERT_TEXT_MESSAGES_SQL = `
WITH input AS (
  SELECT * FROM unnest($1::varchar[], $2::uuid[], $3::varchar[], $4::int[], $5::text[], $6::varchar[], $7::varchar[])
    WITH ORDINALITY AS i(group_code, author_id, code, type, text, lang, client_key, ord)
),
-- Lateral lookups (OFFSET 0 keeps them from being flattened) make every step an index probe per item: a generic
-- plan would otherwise hash-join whole tables.
target AS (
  SELECT i.*, cg.id AS group_id, cg.type AS group_type
  FROM input i CROSS JOIN LATERAL (SELECT id, type FROM chat_group WHERE code = i.group_code OFFSET 0) cg
  WHERE i.author_id IS NULL OR EXISTS (
    SELECT 1 FROM chat_participant p WHERE p.group_id = cg.id AND p.user_id = i.author_id)
),
existing AS (
  SELECT t.ord, t.group_type, m.id FROM target t
  JOIN chat_message m ON m.group_id = t.group_id AND m.author_id = t.author_id AND m.client_key = t.client_key
),
fresh AS (
  SELECT t.*, row_number() OVER (PARTITION BY t.group_id ORDER BY t.ord) AS rn
  FROM target t WHERE NOT EXISTS (SELECT 1 FROM existing e WHERE e.ord = t.ord)
),
counts AS (SELECT group_id, count(*) AS n FROM fresh GROUP BY group_id),
locked AS MATERIALIZED (
  SELECT cg.id FROM chat_group cg WHERE cg.id IN (SELECT group_id FROM counts) ORDER BY cg.id FOR UPDATE
),
bumped AS (
  UPDATE chat_group cg SET last_seq = cg.last_seq + c.n, last_message_at = now()
  FROM counts c JOIN locked l ON l.id = c.group_id
  WHERE cg.id = c.group_id
  RETURNING cg.id, cg.last_seq - c.n AS base_seq
),
inserted AS (
  INSERT INTO chat_message (code, group_id, seq, author_id, type, text, lang, client_key, created_at)
  SELECT f.code, f.group_id, b.base_seq + f.rn, f.author_id, f.type, f.text, f.lang, f.client_key,
         date_trunc('milliseconds', clock_timestamp())
  FROM fresh f JOIN bumped b ON b.id = f.group_id
  RETURNING id, code, group_id, seq, type, text, lang, translation, client_key, created_at, deleted_at, author_id
),
read_marker AS (
  UPDATE chat_participant p SET read_seq = r.seq
  FROM (SELECT group_id, author_id, max(seq) AS seq FROM inserted WHERE author_id IS NOT NULL GROUP BY group_id, author_id) r
  WHERE p.group_id = r.group_id AND p.user_id = r.author_id AND p.read_seq < r.seq
  RETURNING 1
),
outboxed AS (
  INSERT INTO outbox (topic, payload)
  SELECT 'message.created', jsonb_build_object('groupId', i.group_id, 'messageId', i.id, 'seq', i.seq)
  FROM inserted i ORDER BY i.group_id, i.seq
  RETURNING id
),
participants AS MATERIALIZED (
  -- Once per group (inlined, it was re-run for every answer row), with one primary-key lookup per
  -- participant (a join here may be planned as a scan of every user).
  SELECT c.group_id, (SELECT array_agg((SELECT pu.code FROM "user" pu WHERE pu.id = pp.user_id))
                      FROM chat_participant pp WHERE pp.group_id = c.group_id) AS codes
  FROM counts c
)
SELECT f.ord, i.id, i.code, i.group_id, i.seq, i.type, i.text, i.lang, i.translation, i.client_key, i.created_at,
       i.deleted_at, f.group_code, u.code AS author_code, u.name AS author_name, u.surname AS author_surname,
       CASE WHEN u.gravatar THEN u.email END AS author_email, u.avatar_url AS author_avatar_url, '{}'::varchar[] AS file_codes, true AS created,
       f.group_type, pa.codes AS participant_codes
FROM inserted i JOIN fresh f ON f.code = i.code
LEFT JOIN "user" u ON u.id = i.author_id
LEFT JOIN participants pa ON pa.group_id = i.group_id
UNION ALL
SELECT e.ord, e.id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
       NULL, false, e.group_type, NULL
FROM existing e`;
