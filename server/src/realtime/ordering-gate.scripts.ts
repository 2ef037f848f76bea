import { ROUTE } from './fanout-routing.scripts';
import { NOW_MS } from './redis-clock.scripts';

/** Seqs the sweeper let a group skip are remembered this long, so one arriving late is still delivered once. */
const SKIPPED_TTL_S = 3600;
/** At most this many seqs of one gap are remembered (a group whose record was lost may have thousands). */
const SKIPPED_MAX = 1000;

/**
 * Releasing one message (in seq order): it is routed to the nodes of its rooms, then the release step runs with
 * the message's effect (see ReleaseStep), in the same script. `entry` is the rooms' JSON, a newline and the
 * payload's JSON (see OrderingGate.entry).
 */
const RELEASE = `
local function release(seq, entry, effect)
  local nl = string.find(entry, '\\n', 1, true)
  route(cjson.decode(string.sub(entry, 1, nl - 1)), 'message:new', string.sub(entry, nl + 1))
  if effect and effect ~= '' then step(seq, effect) end
end`;

/**
 * One call per batch of messages (of any groups), each passed as if on its own, in the order given. Gate per
 * group: a message is routed to the nodes' inboxes only after every lower seq of its group, so each inbox holds
 * the group's messages (and what their release step routes) in seq order. A message whose predecessor hasn't
 * arrived is held. A seq at or below the last released one was released before (a retry whose first attempt
 * did reach Redis) and is dropped, unless the sweeper skipped it: then it is late but released once rather
 * than lost. Answers { per message what the release steps appended to `answers`, ownEntry, ownAfter } (the
 * calling node's own deliveries and where they belong in its inbox, see fanout-routing.scripts; '' when none).
 * `stepLua` defines `step(seq, effect)`; it reads `group`, the group of the message being released.
 * KEYS: held, then per message last, pending, skipped; ARGV: routeConfig, stepConfig, then per message group,
 * seq, entry, effect.
 */
export const gateScript = (stepLua: string): string => `
local heldKey = KEYS[1]
local routeConfig, stepConfig = ARGV[1], ARGV[2]
local group, answers
${ROUTE}
${stepLua}
${RELEASE}
local function pass(lastKey, pendingKey, skippedKey, seqText, entry, effect)
  local seq = tonumber(seqText)
  local last = tonumber(redis.call('GET', lastKey)) or 0
  if seq <= last then
    if redis.call('SREM', skippedKey, seqText) == 1 then release(seq, entry, effect) end
    return
  end
  if seq > last + 1 then
    redis.call('HSET', pendingKey, seqText, entry, seqText .. ':u', effect)
    redis.call('EXPIRE', pendingKey, 3600)
    redis.call('ZADD', heldKey, 'NX', nowMs(), group)
    return
  end
  release(seq, entry, effect)
  last = seq
  -- Usually nothing is held: one command to know it. (A held record left by an expired pending hash is the
  -- sweeper's to drop.)
  if redis.call('EXISTS', pendingKey) == 1 then
    while true do
      local nextSeq = string.format('%d', last + 1)
      local following = redis.call('HGET', pendingKey, nextSeq)
      if not following then break end
      release(last + 1, following, redis.call('HGET', pendingKey, nextSeq .. ':u'))
      redis.call('HDEL', pendingKey, nextSeq, nextSeq .. ':u')
      last = last + 1
    end
    if redis.call('HLEN', pendingKey) == 0 then redis.call('ZREM', heldKey, group) end
  end
  redis.call('SET', lastKey, last == seq and seqText or string.format('%d', last), 'EX', '604800')
end
local results = {}
for i = 0, (#ARGV - 2) / 4 - 1 do
  group, answers = ARGV[3 + i * 4], {}
  pass(KEYS[2 + i * 3], KEYS[3 + i * 3], KEYS[4 + i * 3], ARGV[4 + i * 4], ARGV[5 + i * 4], ARGV[6 + i * 4])
  results[#results + 1] = answers
end
flushRoutes()
return { results, ownEntry, ownAfter }`;

/** The groups whose oldest held message has waited ARGV[1] ms or more, by the Redis clock. */
export const STALLED = `
${NOW_MS}
return redis.call('ZRANGEBYSCORE', KEYS[1], 0, nowMs() - tonumber(ARGV[1]))`;

/**
 * Lets a stalled group's held messages through in seq order, skipping the gaps (remembered, see gateScript),
 * if it is still stalled when this runs. Answers { released, answers }.
 */
export const flushScript = (stepLua: string): string => `
local lastKey, pendingKey, heldKey, skippedKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local routeConfig, group, stepConfig, holdMs = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local answers = {}
${ROUTE}
${stepLua}
${RELEASE}
local function letThrough()
local since = tonumber(redis.call('ZSCORE', heldKey, group))
if not since or since > nowMs() - holdMs then return { 0, answers } end
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
return { #seqs, answers }
end
local result = letThrough()
flushRoutes()
return result`;
