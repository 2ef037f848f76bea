import { FANOUT_ENTRY_LUA } from '../../realtime/fanout-stream';

/**
 * The unread cache's scripts. A user's cached unread counts: a hash of group → count, group@ → the highest seq
 * of that group the count accounts for (its "watermark"), and the total. Every change announces itself on the
 * fan-out stream in the same script. Where a change cannot be applied exactly, the hash is dropped and refilled
 * from Postgres.
 */

export const TOTAL_FIELD = '_total';
export const WATERMARK_SUFFIX = '@';

const PUSH = `
${FANOUT_ENTRY_LUA}
local function push(stream, maxLen, room, total, groups)
  redis.call('XADD', stream, 'MAXLEN', '~', maxLen, '*', 'e', fanoutLine({ room }, 'unread:count', { total = total, groups = groups }))
end`;

/**
 * After a read: the group's count as Postgres counted it, up to the group's last seq then. False when not
 * cached, or when the cache already holds later messages of the group (it can't tell which are read).
 */
export const APPLY_READ = `
local key, stream = KEYS[1], KEYS[2]
local group, n, lastSeq, ttl, room, maxLen = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], ARGV[5], ARGV[6]
${PUSH}
if redis.call('EXISTS', key) == 0 then return false end
if tonumber(redis.call('HGET', key, group .. '${WATERMARK_SUFFIX}') or '0') > lastSeq then
  redis.call('DEL', key)
  return false
end
local old = tonumber(redis.call('HGET', key, group) or '0')
if n == 0 then redis.call('HDEL', key, group) else redis.call('HSET', key, group, n) end
redis.call('HSET', key, group .. '${WATERMARK_SUFFIX}', lastSeq)
local total = redis.call('HINCRBY', key, '${TOTAL_FIELD}', n - old)
redis.call('PEXPIRE', key, ttl)
push(stream, maxLen, room, total, { [group] = n })
return total`;

/**
 * Fills a user's counts from a Postgres snapshot (ARGV[5..]: group, count, last seq triples), and announces
 * the total, every group whose count it changed, and the count of ARGV[4]. A group the cache already knows
 * past the snapshot keeps its count. Answers { total, that group's count }.
 */
export const FILL = `
local key, stream = KEYS[1], KEYS[2]
local ttl, room, maxLen, pushGroup = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
${PUSH}
local existed = redis.call('EXISTS', key) == 1
local changed = {}
for i = 5, #ARGV, 3 do
  local group, n, lastSeq = ARGV[i], tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2])
  local wm = tonumber(redis.call('HGET', key, group .. '${WATERMARK_SUFFIX}') or '0')
  if not existed or wm <= lastSeq then
    local old = tonumber(redis.call('HGET', key, group) or '0')
    if not existed or old ~= n then changed[group] = n end
    if n > 0 then redis.call('HSET', key, group, n) else redis.call('HDEL', key, group) end
    redis.call('HSET', key, group .. '${WATERMARK_SUFFIX}', lastSeq)
  end
end
local total = 0
local fields = redis.call('HGETALL', key)
for i = 1, #fields, 2 do
  local f = fields[i]
  if f ~= '${TOTAL_FIELD}' and string.sub(f, -1) ~= '${WATERMARK_SUFFIX}' then total = total + tonumber(fields[i + 1]) end
end
redis.call('HSET', key, '${TOTAL_FIELD}', total)
redis.call('PEXPIRE', key, ttl)
local n = tonumber(redis.call('HGET', key, pushGroup) or '0')
changed[pushGroup] = n
push(stream, maxLen, room, total, changed)
return { total, n }`;

/**
 * The ordering gate's release step (see OrderingGate): counting a released message. It runs inside the gate's
 * script, right after the message enters the stream, so a message is counted exactly when it is released:
 * once (the gate releases a seq once, and drops a retry of it), in seq order, and never apart from its release
 * (no crash can fall between "ordered" and "counted").
 *
 * `effect` is the message's spec (UnreadService.messageEffect): r = recipients [key, code], a = the author
 * [key, code]. Each recipient's cached count for the group goes up by one and the author's (whose read marker
 * the message moved to itself) drops to zero; each count's watermark moves to this seq; the new counts follow
 * the message in one stream entry. A recipient's count whose watermark is already at or past this seq (filled
 * from Postgres after the message committed) holds it already. The author's watermark moves back to this seq
 * even if a fill had put it further: the later messages it had counted are released after this one and count
 * again. A recipient without a cache is appended to `answers` for the caller to fill from Postgres.
 * `stepConfig`: { ttl, room } (the cache's time to live in ms, the user room prefix).
 */
export const COUNT_RELEASED = `
${FANOUT_ENTRY_LUA}
local unreadConfig = cjson.decode(stepConfig)
local unreadTtl, roomPrefix = unreadConfig.ttl, unreadConfig.room
local function watermark(key)
  return tonumber(redis.call('HGET', key, group .. '${WATERMARK_SUFFIX}') or '0')
end
local function step(seq, effect)
  local spec = cjson.decode(effect)
  local pushes = {}
  for _, r in ipairs(spec.r) do
    if redis.call('EXISTS', r[1]) == 0 then
      answers[#answers + 1] = r[2]
    elseif seq > watermark(r[1]) then
      local n = redis.call('HINCRBY', r[1], group, 1)
      redis.call('HSET', r[1], group .. '${WATERMARK_SUFFIX}', seq)
      local total = redis.call('HINCRBY', r[1], '${TOTAL_FIELD}', 1)
      redis.call('PEXPIRE', r[1], unreadTtl)
      pushes[#pushes + 1] = fanoutLine({ roomPrefix .. r[2] }, 'unread:count', { total = total, groups = { [group] = n } })
    end
  end
  local author = spec.a
  if author and redis.call('EXISTS', author[1]) == 1 then
    local n = tonumber(redis.call('HGET', author[1], group) or '0')
    redis.call('HSET', author[1], group .. '${WATERMARK_SUFFIX}', seq)
    if n > 0 then
      redis.call('HDEL', author[1], group)
      local total = redis.call('HINCRBY', author[1], '${TOTAL_FIELD}', -n)
      pushes[#pushes + 1] = fanoutLine({ roomPrefix .. author[2] }, 'unread:count', { total = total, groups = { [group] = 0 } })
    end
    redis.call('PEXPIRE', author[1], unreadTtl)
  end
  if #pushes > 0 then
    redis.call('XADD', stream, 'MAXLEN', '~', maxLen, '*', 'e', table.concat(pushes, '\\n'))
  end
end`;
