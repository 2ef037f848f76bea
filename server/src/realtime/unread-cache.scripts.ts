/**
 * A user's cached unread counts: a hash of group → count, group@ → the highest seq of that group the count
 * accounts for (its "watermark"), and the total. Every change announces itself on the fan-out stream in the
 * same script. Where a change cannot be applied exactly, the hash is dropped and refilled from Postgres.
 */

export const TOTAL_FIELD = '_total';
export const WATERMARK_SUFFIX = '@';

const PUSH = `
local function push(stream, maxLen, room, total, groups)
  local payload = { total = total, groups = groups }
  redis.call('XADD', stream, 'MAXLEN', '~', maxLen, '*', 'e', cjson.encode({ { rooms = { room }, event = 'unread:count', payload = payload } }))
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
