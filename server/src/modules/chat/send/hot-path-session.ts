/**
 * The hot-path connections' session settings. A prepared statement runs on its generic plan: under the default
 * plan_cache_mode, Postgres kept re-planning the batch statement for every call (its generic plan's estimate
 * never beat the custom ones), which doubled its cost (2.5 → 1.1 ms for two messages). That plan is made once
 * per connection and kept until the tables' statistics change, so on a fresh install it was made for empty,
 * never-analysed tables: it read chat_message whole to find a repeated client key, every batch, slower with each
 * message stored until autovacuum's first ANALYZE (Postgres 770 µs per message at 500 msg/s in the first load
 * run on a new database, 350 once analysed). No sequential scans: every step of the statement is an index probe
 * whatever the statistics say.
 */
export const HOT_PATH_SESSION_OPTIONS = '-c plan_cache_mode=force_generic_plan -c enable_seqscan=off';
