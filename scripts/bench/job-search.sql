-- The jobs list's title search (GET /api/job?q=) with and without the trigram index, on 100,000 jobs in 10
-- instances with two versions each and 200,000 offers. Self-contained (temporary tables); run it against a
-- throw-away database, since it creates the pg_trgm extension there:
--   createdb -h 127.0.0.1 -U postgres jobsearch && psql -h 127.0.0.1 -U postgres -d jobsearch -q -f scripts/bench/job-search.sql \
--     | grep -E '^-- |Execution Time'; dropdb -h 127.0.0.1 -U postgres jobsearch
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE TEMP TABLE job (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, instance_id int, created_at timestamptz);
CREATE TEMP TABLE job_version (job_id bigint, lang varchar(3), title varchar(200), PRIMARY KEY (job_id, lang));
CREATE TEMP TABLE job_offer (job_id bigint, status smallint);
INSERT INTO job (instance_id, created_at) SELECT i % 10, now() - (i || ' seconds')::interval FROM generate_series(1, 100000) i;
INSERT INTO job_version SELECT id, 'eng', 'Job number ' || id || ' ' || md5(id::text) FROM job;
INSERT INTO job_version SELECT id, 'pol', 'Zlecenie numer ' || id || ' ' || md5((id * 7)::text) FROM job;
INSERT INTO job_offer SELECT (random() * 99999 + 1)::bigint, 5 FROM generate_series(1, 200000);
CREATE INDEX ON job (instance_id, created_at DESC, id DESC);
CREATE INDEX ON job_offer (job_id, status);
ANALYZE job; ANALYZE job_version; ANALYZE job_offer;

-- The query of JobsRepository.list with a search (the condition is added only when there is one: an
-- "$1 IS NULL OR EXISTS …" form keeps the planner from a semi-join and reads every matching title).
PREPARE page(text) AS SELECT j.id FROM job j WHERE j.instance_id = 3
  AND EXISTS (SELECT 1 FROM job_version v WHERE v.job_id = j.id AND v.title ILIKE $1)
  ORDER BY j.created_at DESC, j.id DESC LIMIT 21;
PREPARE plain AS SELECT j.id FROM job j WHERE j.instance_id = 3 ORDER BY j.created_at DESC, j.id DESC LIMIT 21;

\echo '-- without the trigram index: no search'
EXPLAIN (ANALYZE, TIMING OFF) EXECUTE plain;
\echo '-- without the trigram index: a text in every title'
EXPLAIN (ANALYZE, TIMING OFF) EXECUTE page('%numer%');
\echo '-- without the trigram index: a text in no title'
EXPLAIN (ANALYZE, TIMING OFF) EXECUTE page('%no such text%');

CREATE INDEX ON job_version USING gin (title gin_trgm_ops);
ANALYZE job_version;
\echo '-- with the trigram index: a text in no title'
EXPLAIN (ANALYZE, TIMING OFF) EXECUTE page('%no such text%');
\echo '-- with the trigram index: a text in every title'
EXPLAIN (ANALYZE, TIMING OFF) EXECUTE page('%numer%');
\echo '-- with the trigram index: a text in one title'
EXPLAIN (ANALYZE, TIMING OFF) EXECUTE page('%numer 50003 %');
\echo '-- with the trigram index: two letters (too short for trigrams)'
EXPLAIN (ANALYZE, TIMING OFF) EXECUTE page('%zq%');
\echo '-- the offer counts of a page of 20'
EXPLAIN (ANALYZE, TIMING OFF) SELECT job_id, count(*)::int FROM job_offer WHERE job_id = ANY(ARRAY(SELECT generate_series(1000::bigint, 1019))) GROUP BY job_id;
