-- A user's track record (GET /api/user/{code}/track-record, TrackRecordRepository and ReviewsRepository.ratingOf)
-- on 2,000,000 chat messages in 10,000 chats, 200,000 offers with their payments and 200,000 reviews, for a
-- heavy user: in 2,000 chats, paid 5,000 deals, reviewed 5,000 times. The tables carry the real indexes the
-- queries use. Self-contained (temporary tables):
--   createdb -h 127.0.0.1 -U postgres trackrecord && psql -h 127.0.0.1 -U postgres -d trackrecord -q -f scripts/bench/track-record.sql \
--     | grep -E '^-- |Execution Time'; dropdb -h 127.0.0.1 -U postgres trackrecord
CREATE FUNCTION pg_temp.u(n int) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$ SELECT ('00000000-0000-0000-0000-' || lpad(n::text, 12, '0'))::uuid $$;
CREATE TEMP TABLE chat_group (id bigint PRIMARY KEY, last_message_at timestamptz);
CREATE TEMP TABLE chat_participant (group_id bigint, user_id uuid, PRIMARY KEY (group_id, user_id));
CREATE TEMP TABLE chat_message (group_id bigint, seq bigint, author_id uuid, created_at timestamptz, deleted_at timestamptz, offer_note boolean DEFAULT false);
-- User 0 is in the first 2,000 chats; every chat has a second person (1..999).
INSERT INTO chat_group SELECT g, now() - (g || ' minutes')::interval FROM generate_series(1, 10000) g;
INSERT INTO chat_participant SELECT g, pg_temp.u(CASE WHEN g <= 2000 THEN 0 ELSE 1000 + g % 997 END) FROM generate_series(1, 10000) g;
INSERT INTO chat_participant SELECT g, pg_temp.u(1 + g % 999) FROM generate_series(1, 10000) g;
INSERT INTO chat_message (group_id, seq, author_id, created_at)
  SELECT g, s, CASE WHEN random() < 0.5 THEN pg_temp.u(CASE WHEN g <= 2000 THEN 0 ELSE 1000 + g % 997 END) ELSE pg_temp.u(1 + g % 999) END,
         now() - ((10000 - g) || ' minutes')::interval - ((200 - s) * 97 || ' seconds')::interval
  FROM generate_series(1, 10000) g, generate_series(1, 200) s;
CREATE UNIQUE INDEX ON chat_message (group_id, seq);
CREATE INDEX ON chat_message (group_id, author_id, seq) WHERE deleted_at IS NULL;
CREATE INDEX ON chat_participant (user_id);

CREATE TEMP TABLE job_offer (id bigint PRIMARY KEY, provider_id uuid);
CREATE TEMP TABLE payment (offer_id bigint, payer_id uuid, status varchar(10), created_at timestamptz DEFAULT now());
INSERT INTO job_offer SELECT o, pg_temp.u(CASE WHEN o <= 5000 THEN 0 ELSE 1 + o % 999 END) FROM generate_series(1, 200000) o;
INSERT INTO payment SELECT o, pg_temp.u(CASE WHEN o > 195000 THEN 0 ELSE 1 + (o * 7) % 999 END), 'succeeded' FROM generate_series(1, 200000) o;
CREATE INDEX ON job_offer (provider_id);
CREATE INDEX ON payment (payer_id, created_at DESC);
CREATE UNIQUE INDEX ON payment (offer_id) WHERE status = 'succeeded';

CREATE TEMP TABLE offer_review (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, subject_id uuid, rating smallint, window_ends_at timestamptz, published_at timestamptz);
INSERT INTO offer_review (subject_id, rating, window_ends_at, published_at)
  SELECT pg_temp.u(CASE WHEN r <= 5000 THEN 0 ELSE 1 + r % 999 END), 1 + r % 5, now() - (r || ' minutes')::interval, CASE WHEN r % 3 = 0 THEN NULL ELSE now() - (r || ' hours')::interval END
  FROM generate_series(1, 200000) r;
CREATE INDEX ON offer_review (subject_id, window_ends_at DESC);
ANALYZE chat_group; ANALYZE chat_participant; ANALYZE chat_message; ANALYZE job_offer; ANALYZE payment; ANALYZE offer_review;

-- The queries as TrackRecordRepository and ReviewsRepository.ratingOf send them.
PREPARE reply_seconds(uuid) AS
  WITH chats AS (
    SELECT p.group_id FROM chat_participant p JOIN chat_group g ON g.id = p.group_id
    WHERE p.user_id = $1 AND g.last_message_at IS NOT NULL ORDER BY g.last_message_at DESC LIMIT 30),
  mine AS (
    SELECT m.group_id, m.seq, m.created_at FROM chats c
    CROSS JOIN LATERAL (
      SELECT m.group_id, m.seq, m.created_at FROM chat_message m
      WHERE m.group_id = c.group_id AND m.author_id = $1 AND m.deleted_at IS NULL AND NOT m.offer_note
      ORDER BY m.seq DESC LIMIT 10) m),
  answers AS (
    SELECT extract(epoch FROM mine.created_at - prev.created_at) AS s FROM mine
    CROSS JOIN LATERAL (
      SELECT q.author_id, q.created_at, q.offer_note FROM chat_message q
      WHERE q.group_id = mine.group_id AND q.seq < mine.seq AND q.deleted_at IS NULL
      ORDER BY q.seq DESC LIMIT 1) prev
    WHERE prev.author_id <> $1 AND NOT prev.offer_note)
  SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY s) AS median, count(*)::int AS n FROM answers;
PREPARE completed_deals(uuid) AS
  SELECT ((SELECT count(*) FROM payment p WHERE p.payer_id = $1 AND p.status = 'succeeded')
        + (SELECT count(*) FROM job_offer o
           CROSS JOIN LATERAL (SELECT 1 FROM payment p WHERE p.offer_id = o.id AND p.status = 'succeeded' LIMIT 1) settled
           WHERE o.provider_id = $1))::int AS n;
PREPARE rating(uuid) AS
  SELECT avg(r.rating)::numeric(3, 2)::text AS average, count(*)::int AS count FROM offer_review r
  WHERE r.subject_id = $1 AND (r.published_at IS NOT NULL OR r.window_ends_at <= now());

\echo '-- reply time, the heavy user (2,000 chats, ~200,000 own messages)'
EXPLAIN (ANALYZE, TIMING OFF) EXECUTE reply_seconds(pg_temp.u(0));
EXECUTE reply_seconds(pg_temp.u(0));
\echo '-- reply time, a user in 10 chats'
EXPLAIN (ANALYZE, TIMING OFF) EXECUTE reply_seconds(pg_temp.u(500));
\echo '-- completed deals, the heavy user (10,000 deals)'
EXPLAIN (ANALYZE, TIMING OFF) EXECUTE completed_deals(pg_temp.u(0));
\echo '-- rating, the heavy user (5,000 reviews)'
EXPLAIN (ANALYZE, TIMING OFF) EXECUTE rating(pg_temp.u(0));
\echo '-- rating, a user with ~200 reviews'
EXPLAIN (ANALYZE, TIMING OFF) EXECUTE rating(pg_temp.u(500));
