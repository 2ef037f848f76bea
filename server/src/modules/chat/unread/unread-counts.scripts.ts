/**
 * The unread cache's scripts. A user's cached unread counts: a hash of group → count, group@ → the highest seq
 * of that group the count accounts for (its "watermark"), and the total. Every change announces itself through
 * the fan-out (ROUTING) in the same script. Where a change cannot be applied exactly, the hash is dropped and refilled
 * from Postgres. `_refresh` holds the Redis clock (ms) from which the hash's TTL is renewed: half a TTL after the
 * last renewal, so a busy user's hash is not renewed on every message (one command fewer per recipient) and never
 * lapses while in use.
 *
 * Numbers go to Redis and into JSON as text made with string.format('%d'): Lua's own conversion of a number
 * (a double) to text, for a command's argument or a concatenation, is a floating-point printf, about a tenth of
 * the gate script's work when it ran for every count.
 */

import { ROOM_LINE } from '../../../fanout/fanout-entry';
import { ROUTING } from '../../../fanout/fanout-routing.scripts';
import { luaPiece, luaScript } from '../../../fanout/lua-script';
import { NOW_MS } from '../../../fanout/redis-clock.scripts';

export const TOTAL_FIELD = '_total';
export const REFRESH_FIELD = '_refresh';
export const WATERMARK_SUFFIX = '@';

/** `pushCounts(routing, room, total, groups)`: routes one user's new counts; the script flushes its routing before it returns. */
export const PUSH_COUNTS = luaPiece(
  'pushCounts',
  [],
  `local function pushCounts(routing, room, total, groups)
  routing.route({ room }, 'unread:count', cjson.encode({ total = total, groups = groups }))
end`,
);

/**
 * After a read: the group's count as Postgres counted it, up to the group's last seq then. False when not
 * cached, or when the cache already holds later messages of the group (it can't tell which are read).
 */
export const APPLY_READ = luaScript(
  [ROUTING, PUSH_COUNTS],
  `local key = KEYS[1]
local group, n, lastSeq, ttl, room, routeConfig = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], ARGV[5], ARGV[6]
local routing = Routing(cjson.decode(routeConfig))
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
pushCounts(routing, room, total, { [group] = n })
routing.flush()
return total`,
);

/**
 * Fills a user's counts from a Postgres snapshot (group, count, last seq triples), and announces the total,
 * every group whose count it changed, and the count of `pushGroup`. A group the cache already knows past the
 * snapshot keeps its count. Answers { total, that group's count }.
 */
export const FILL = luaScript(
  [NOW_MS, ROUTING, PUSH_COUNTS],
  `local key = KEYS[1]
local ttl, room, routeConfig, pushGroup = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local SNAPSHOT = 5 -- ARGV[5..]: group, count, last seq triples
local routing = Routing(cjson.decode(routeConfig))
local existed = redis.call('EXISTS', key) == 1
local changed = {}
for i = SNAPSHOT, #ARGV, 3 do
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
  if f ~= '${TOTAL_FIELD}' and f ~= '${REFRESH_FIELD}' and string.sub(f, -1) ~= '${WATERMARK_SUFFIX}' then total = total + tonumber(fields[i + 1]) end
end
redis.call('HSET', key, '${TOTAL_FIELD}', total, '${REFRESH_FIELD}', string.format('%d', nowMs() + math.floor(tonumber(ttl) / 2)))
redis.call('PEXPIRE', key, ttl)
local n = tonumber(redis.call('HGET', key, pushGroup) or '0')
changed[pushGroup] = n
pushCounts(routing, room, total, changed)
routing.flush()
return { total, n }`,
);

/**
 * The ordering gate's release step (see OrderingGate): counting a released message. It runs inside the gate's
 * script, right after the message is routed, so a message is counted exactly when it is released:
 * once (the gate releases a seq once, and drops a retry of it), in seq order, and never apart from its release
 * (no crash can fall between "ordered" and "counted").
 *
 * `effect` is the message's spec (UnreadService.messageEffect): r = recipients [key, code], a = the author
 * [key, code]. Each recipient's cached count for the group goes up by one and the author's (whose read marker
 * the message moved to itself) drops to zero; each count's watermark moves to this seq; the new counts are routed
 * right after the message, into the same inbox entries. A recipient's count whose watermark is already at or past this seq (filled
 * from Postgres after the message committed) holds it already. The author's watermark moves back to this seq
 * even if a fill had put it further: the later messages it had counted are released after this one and count
 * again. A recipient without a cache is appended to `answers` for the caller to fill from Postgres.
 * `UnreadStep(config, routing)`, config being JSON { ttl, room } (the cache's time to live in ms, the user room
 * prefix), answers the step (ReleaseStep in ordering-gate.ts).
 */
export const COUNT_RELEASED = luaPiece(
  'UnreadStep',
  [NOW_MS, ROOM_LINE],
  `local function UnreadStep(config, routing)
  local unreadConfig = cjson.decode(config)
  local unreadTtl, roomPrefix = unreadConfig.ttl, unreadConfig.room
  local ttlText = string.format('%d', unreadTtl)
  local routeLine = routing.routeLine
  local clock
  -- Pushes a user's new count (total, and this group's) to their room.
  local function pushCount(userCode, groupJson, totalText, nText)
    local room = roomPrefix .. userCode
    routeLine(room, roomLine(room, 'unread:count', '{"total":' .. totalText .. ',"groups":{' .. groupJson .. ':' .. nText .. '}}'))
  end
  -- Renews a hash's TTL once its refresh time (text, or false) has come: answers the next refresh time, or nil.
  local function renewal(key, refreshText)
    if not clock then
      local now = nowMs()
      clock = { now = now, next = string.format('%d', now + math.floor(unreadTtl / 2)) }
    end
    if refreshText and tonumber(refreshText) > clock.now then return nil end
    redis.call('PEXPIRE', key, ttlText)
    return clock.next
  end
  return function(group, seq, effect, answers)
    local spec = cjson.decode(effect)
    local wmField, groupJson, seqText = group .. '${WATERMARK_SUFFIX}', cjson.encode(group), string.format('%d', seq)
    for _, r in ipairs(spec.r) do
      -- The total is in every cached hash (FILL writes it): without it, there is no cache.
      local cached = redis.call('HMGET', r[1], '${TOTAL_FIELD}', wmField, group, '${REFRESH_FIELD}')
      local total = tonumber(cached[1])
      if not total then
        answers[#answers + 1] = r[2]
      elseif seq > (tonumber(cached[2]) or 0) then
        local nText, totalText = string.format('%d', (tonumber(cached[3]) or 0) + 1), string.format('%d', total + 1)
        local refresh = renewal(r[1], cached[4])
        if refresh then
          redis.call('HSET', r[1], group, nText, wmField, seqText, '${TOTAL_FIELD}', totalText, '${REFRESH_FIELD}', refresh)
        else
          redis.call('HSET', r[1], group, nText, wmField, seqText, '${TOTAL_FIELD}', totalText)
        end
        pushCount(r[2], groupJson, totalText, nText)
      end
    end
    local author = spec.a
    if not author then return end
    local cached = redis.call('HMGET', author[1], '${TOTAL_FIELD}', group, '${REFRESH_FIELD}')
    local total = tonumber(cached[1])
    if not total then return end
    local n = tonumber(cached[2]) or 0
    local fields, totalText = { wmField, seqText }, nil
    if n > 0 then
      redis.call('HDEL', author[1], group)
      totalText = string.format('%d', total - n)
      fields[3], fields[4] = '${TOTAL_FIELD}', totalText
    end
    local refresh = renewal(author[1], cached[3])
    if refresh then
      fields[#fields + 1], fields[#fields + 2] = '${REFRESH_FIELD}', refresh
    end
    redis.call('HSET', author[1], unpack(fields))
    if totalText then pushCount(author[2], groupJson, totalText, '0') end
  end
end`,
);
