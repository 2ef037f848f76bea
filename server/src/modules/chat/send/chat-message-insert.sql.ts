import { ChatGroupType } from '#shared/contracts/chat';
import { OfferStatus } from '#shared/contracts/offers';

/**
 * Whether a message is marked off-platform: its text reads so (the detector ran in the app, `flag`) and its group
 * is an offer's chat whose offer is not yet Agreed (or later). The offer is probed only for a flagged text, which
 * is rare, so the send of any other message pays nothing for it.
 */
export function offPlatformSql(flag: string, groupType: string, targetId: string): string {
  return `(${flag} AND ${groupType} = ${ChatGroupType.JobOffer} AND EXISTS (
           SELECT 1 FROM job_offer o WHERE o.code = ${targetId} AND o.status < ${OfferStatus.Agreed}))`;
}

/**
 * The hot path, for a batch of messages (see ChatMessageInsertQueue), in ONE statement (one round trip, one
 * commit): for every item the membership check, a gap-free seq, the idempotent insert, the author's read
 * marker, the file links and the outbox row.
 *
 * Items are named arrays of equal length: $1 group codes, $2 authors, $3 codes, $4 types, $5 texts, $6 langs,
 * $7 client keys, $11 the ids of the messages they quote (NULL when not a reply; the caller checked each is in
 * the item's group), $12 the participants version of the group whose participant codes the caller holds (NULL
 * when it holds none), $13 whether the item is an offer note (only the marketplace's notes are), $14 the note's data (JSON, NULL
 * for any other message), $15 whether its text reads as off-platform (OFF_PLATFORM_SQL decides whether the message is
 * marked), $16 its trace context for its outbox row (NULL while tracing is off). Files are one row per file: $8 the item's ord (1-based), $9 the file id, $10 its position
 * in the message (0-based). Every item answers one row with its `ord`: `created` true with the stored message, or
 * false with only the `id` of the message a repeated client key stored before. An item whose group doesn't
 * exist or isn't the author's answers no row. A stored message answers its group's `participants_version` and,
 * unless every item of that group named that version in $12, the participants' codes at it.
 *
 * Each group's seq moves once by its number of new messages, numbered in item order. The group rows are locked
 * in id order before they are bumped, so two batches that share groups (two server processes) never deadlock;
 * a failed statement rolls every bump back. Items must not repeat a (group, author, client key): the caller
 * answers repeats from the first one.
 */
export const INSERT_MESSAGES_SQL = `
WITH input AS (
  SELECT * FROM unnest($1::varchar[], $2::uuid[], $3::varchar[], $4::int[], $5::text[], $6::varchar[], $7::varchar[], $11::bigint[],
                       $12::bigint[], $13::boolean[], $14::jsonb[], $15::boolean[], $16::text[])
    WITH ORDINALITY AS i(group_code, author_id, code, type, text, lang, client_key, reply_to_id, known_version, offer_note, offer_note_data, off_platform_text, traceparent, ord)
),
attached AS (
  SELECT * FROM unnest($8::bigint[], $9::bigint[], $10::int[]) AS a(ord, file_id, position)
),
-- Lateral lookups (OFFSET 0 keeps them from being flattened) make every step an index probe per item: a generic
-- plan would otherwise hash-join whole tables.
target AS (
  SELECT i.*, cg.id AS group_id, cg.type AS group_type, cg.target_id, cg.participants_version
  FROM input i CROSS JOIN LATERAL (SELECT id, type, target_id, participants_version FROM chat_group WHERE code = i.group_code OFFSET 0) cg
  WHERE i.author_id IS NULL OR EXISTS (
    SELECT 1 FROM chat_participant p WHERE p.group_id = cg.id AND p.user_id = i.author_id)
),
existing AS (
  SELECT t.ord, m.id FROM target t
  CROSS JOIN LATERAL (
    SELECT id FROM chat_message WHERE group_id = t.group_id AND author_id = t.author_id AND client_key = t.client_key OFFSET 0) m
),
fresh AS (
  SELECT t.*, row_number() OVER (PARTITION BY t.group_id ORDER BY t.ord) AS rn
  FROM target t WHERE NOT EXISTS (SELECT 1 FROM existing e WHERE e.ord = t.ord)
),
counts AS (
  SELECT group_id, count(*) AS n, bool_and(known_version IS NOT DISTINCT FROM participants_version) AS codes_known
  FROM fresh GROUP BY group_id
),
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
  INSERT INTO chat_message (code, group_id, seq, author_id, type, text, lang, client_key, created_at, reply_to_id, offer_note, offer_note_data, off_platform)
  SELECT f.code, f.group_id, b.base_seq + f.rn, f.author_id, f.type, f.text, f.lang, f.client_key,
         date_trunc('milliseconds', clock_timestamp()), f.reply_to_id, f.offer_note, f.offer_note_data,
         ${offPlatformSql('f.off_platform_text', 'f.group_type', 'f.target_id')}
  FROM fresh f JOIN bumped b ON b.id = f.group_id
  RETURNING id, code, group_id, seq, type, text, lang, translation, client_key, created_at, deleted_at, author_id, offer_note, offer_note_data, off_platform
),
stored AS MATERIALIZED (
  SELECT f.ord, f.traceparent, i.* FROM inserted i JOIN fresh f ON f.code = i.code
),
read_marker AS (
  UPDATE chat_participant p SET read_seq = r.seq
  FROM (SELECT group_id, author_id, max(seq) AS seq FROM stored WHERE author_id IS NOT NULL GROUP BY group_id, author_id) r
  WHERE p.group_id = r.group_id AND p.user_id = r.author_id AND p.read_seq < r.seq
  RETURNING 1
),
linked_files AS (
  INSERT INTO chat_message_file (message_id, file_id, position)
  SELECT s.id, a.file_id, a.position FROM stored s JOIN attached a ON a.ord = s.ord
  RETURNING file_id
),
files_bound AS (
  -- Each file by its primary key (a lookup of "group_id IS NULL" would read every unbound file).
  UPDATE file SET group_id = b.group_id
  FROM (SELECT s.group_id, f.id FROM stored s JOIN attached a ON a.ord = s.ord
        CROSS JOIN LATERAL (SELECT id FROM file WHERE id = a.file_id AND group_id IS NULL OFFSET 0) f) b
  WHERE file.id = b.id
  RETURNING 1
),
outboxed AS (
  INSERT INTO outbox (topic, payload, traceparent)
  SELECT 'message.created', jsonb_build_object('groupId', s.group_id, 'messageId', s.id, 'seq', s.seq), s.traceparent
  FROM stored s ORDER BY s.group_id, s.seq
  RETURNING id
),
participants AS MATERIALIZED (
  -- Once per group (inlined, it was re-run for every answer row), with one primary-key lookup per
  -- participant (a join here may be planned as a scan of every user); only for groups whose codes the caller
  -- doesn't hold at this version (the version and the codes come from the same snapshot).
  SELECT c.group_id, CASE WHEN NOT c.codes_known THEN
           (SELECT array_agg((SELECT pu.code FROM "user" pu WHERE pu.id = pp.user_id))
            FROM chat_participant pp WHERE pp.group_id = c.group_id) END AS codes
  FROM counts c
)
SELECT t.ord, t.group_code, t.group_type, s.id IS NOT NULL AS created, COALESCE(s.id, e.id) AS id,
       s.code, s.group_id, s.seq, s.type, s.text, s.lang, s.translation, s.client_key, s.created_at, s.deleted_at, s.offer_note, s.offer_note_data, s.off_platform,
       u.code AS author_code, u.name AS author_name, u.surname AS author_surname,
       CASE WHEN u.gravatar THEN u.email END AS author_email, u.avatar_url AS author_avatar_url,
       t.participants_version, pa.codes AS participant_codes
FROM target t
LEFT JOIN stored s ON s.ord = t.ord
LEFT JOIN existing e ON e.ord = t.ord
LEFT JOIN LATERAL (SELECT * FROM "user" WHERE id = s.author_id OFFSET 0) u ON true
LEFT JOIN participants pa ON pa.group_id = s.group_id`;
