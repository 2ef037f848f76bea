import { TOTAL_FIELD, WATERMARK_SUFFIX } from './unread-cache.scripts';

/** Seqs the sweeper let a group skip are remembered this long, so one arriving late is still delivered once. */
const SKIPPED_TTL_S = 3600;
/** At most this many seqs of one gap are remembered (a group whose record was lost may have thousands). */
const SKIPPED_MAX = 1000;

/** Now in ms by the Redis clock: a publish that waited in a client's queue through an outage starts its hold when it runs. */
const NOW_MS = `
local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end`;

/**
 * Releasing one message (in seq order): its entry goes to the stream, then its unread effects, in the same
 * order as the messages: each recipient's cached count for the group goes up by one, and the author's (whose
 * read marker the message moved to itself) drops to zero; each count's watermark moves to this seq. The new
 * counts follow the message in one stream entry. A recipient's count whose watermark is already at or past
 * this seq (filled from Postgres after the message committed) holds it already. The author's watermark moves
 * back to this seq even if a fill had put it further: the later messages it had counted are released after
 * this one and count again. A recipient without a cache is collected in `cold` for the caller to fill from
 * Postgres.
 */
const RELEASE = `
local cold = {}
local function watermark(key)
  return tonumber(redis.call('HGET', key, group .. '${WATERMARK_SUFFIX}') or '0')
end
local function release(seq, entry, unread)
  redis.call('XADD', stream, 'MAXLEN', '~', maxLen, '*', 'e', entry)
  if not unread then return end
  local spec = cjson.decode(unread)
  local pushes = {}
  for _, r in ipairs(spec.r) do
    if redis.call('EXISTS', r[1]) == 0 then
      cold[#cold + 1] = r[2]
    elseif seq > watermark(r[1]) then
      local n = redis.call('HINCRBY', r[1], group, 1)
      redis.call('HSET', r[1], group .. '${WATERMARK_SUFFIX}', seq)
      local total = redis.call('HINCRBY', r[1], '${TOTAL_FIELD}', 1)
      redis.call('PEXPIRE', r[1], unreadTtl)
      pushes[#pushes + 1] = { rooms = { roomPrefix .. r[2] }, event = 'unread:count', payload = { total = total, groups = { [group] = n } } }
    end
  end
  local author = spec.a
  if author and redis.call('EXISTS', author[1]) == 1 then
    local n = tonumber(redis.call('HGET', author[1], group) or '0')
    redis.call('HSET', author[1], group .. '${WATERMARK_SUFFIX}', seq)
    if n > 0 then
      redis.call('HDEL', author[1], group)
      local total = redis.call('HINCRBY', author[1], '${TOTAL_FIELD}', -n)
      pushes[#pushes + 1] = { rooms = { roomPrefix .. author[2] }, event = 'unread:count', payload = { total = total, groups = { [group] = 0 } } }
    end
    redis.call('PEXPIRE', author[1], unreadTtl)
  end
  if #pushes > 0 then
    redis.call('XADD', stream, 'MAXLEN', '~', maxLen, '*', 'e', cjson.encode(pushes))
  end
end`;

/**
 * One call per message. Gate per group: a message is released to the shared fan-out stream only after every
 * lower seq of its group, so the stream holds each group's messages (and their unread effects) in seq order.
 * A message whose predecessor hasn't arrived is held. A seq at or below the last released one was released
 * before (a retry whose first attempt did reach Redis) and is dropped, unless the sweeper skipped it: then it
 * is late but delivered once rather than lost. Answers the recipients whose counts were not cached.
 */
export const GATE = `
local lastKey, pendingKey, heldKey, stream, skippedKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local seqText, entry, unread, maxLen, group, unreadTtl, roomPrefix = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7]
local seq = tonumber(seqText)
${NOW_MS}
${RELEASE}
local last = tonumber(redis.call('GET', lastKey)) or 0
if seq <= last then
  if redis.call('SREM', skippedKey, seqText) == 1 then release(seq, entry, unread) end
  return cold
end
if seq > last + 1 then
  redis.call('HSET', pendingKey, seqText, entry, seqText .. ':u', unread)
  redis.call('EXPIRE', pendingKey, 3600)
  redis.call('ZADD', heldKey, 'NX', nowMs(), group)
  return cold
end
release(seq, entry, unread)
last = seq
while true do
  local nextSeq = tostring(last + 1)
  local following = redis.call('HGET', pendingKey, nextSeq)
  if not following then break end
  release(last + 1, following, redis.call('HGET', pendingKey, nextSeq .. ':u'))
  redis.call('HDEL', pendingKey, nextSeq, nextSeq .. ':u')
  last = last + 1
end
redis.call('SET', lastKey, last, 'EX', 604800)
if redis.call('HLEN', pendingKey) == 0 then redis.call('ZREM', heldKey, group) end
return cold`;

/** The groups whose oldest held message has waited ARGV[1] ms or more, by the Redis clock. */
export const STALLED = `
${NOW_MS}
return redis.call('ZRANGEBYSCORE', KEYS[1], 0, nowMs() - tonumber(ARGV[1]))`;

/**
 * Lets a stalled group's held messages through in seq order, skipping the gaps (remembered, see GATE), if it
 * is still stalled when this runs. Answers { released, cold recipients }.
 */
export const FLUSH = `
local lastKey, pendingKey, heldKey, stream, skippedKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local maxLen, group, unreadTtl, roomPrefix, holdMs = ARGV[1], ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5])
${NOW_MS}
${RELEASE}
local since = tonumber(redis.call('ZSCORE', heldKey, group))
if not since or since > nowMs() - holdMs then return { 0, cold } end
local seqs = {}
for _, field in ipairs(redis.call('HKEYS', pendingKey)) do
  if not string.find(field, ':') then seqs[#seqs + 1] = tonumber(field) end
end
table.sort(seqs)
local last = tonumber(redis.call('GET', lastKey)) or 0
for _, s in ipairs(seqs) do
  if last > 0 then
    for gap = math.max(last + 1, s - ${SKIPPED_MAX}), s - 1 do redis.call('SADD', skippedKey, tostring(gap)) end
    redis.call('EXPIRE', skippedKey, ${SKIPPED_TTL_S})
  end
  release(s, redis.call('HGET', pendingKey, tostring(s)), redis.call('HGET', pendingKey, s .. ':u'))
  if s > last then last = s end
end
redis.call('DEL', pendingKey)
redis.call('SET', lastKey, last, 'EX', 604800)
redis.call('ZREM', heldKey, group)
return { #seqs, cold }`;
