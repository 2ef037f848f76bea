import { ROUTING } from './fanout-routing.scripts';
import { LuaPiece, luaPiece, luaScript } from './lua-script';
import { NOW_MS } from './redis-clock.scripts';

/** Seqs the sweeper let a group skip are remembered this long, so one arriving late is still delivered once. */
const SKIPPED_TTL_S = 3600;
/** At most this many seqs of one gap are remembered (a group whose record was lost may have thousands). */
const SKIPPED_MAX = 1000;

/**
 * A follow-up of a message committed longer ago than this, in a group the gate has no record of, goes at once: the
 * message went through long ago (the sweeper lets a held message through within seconds), and the group's record
 * expired since. Generous, as the message's time comes from another clock than Redis'.
 */
const FOLLOW_WINDOW_MS = 60_000;
/** Separates the held follow-ups of one seq in their pending field (JSON text never holds a raw control character). */
const FOLLOWER_SEPARATOR = '\\30';

/**
 * `GateRelease(routing, step)`: routing a gate entry (OrderingGate.entry: the rooms' JSON, the event, the
 * payload's JSON, a line each), and releasing one message in seq order: `release(group, seq, entry, effect,
 * answers)` routes it, then runs the release step with its effect (see ReleaseStep in ordering-gate.ts), and
 * `releaseFollowers(pendingKey, seqText)` routes the follow-ups that waited for it (edits, deletes, translations,
 * group changes made right behind it), in the order they came, all in the same script.
 */
export const GATE_RELEASE = luaPiece(
  'GateRelease',
  [],
  `local function GateRelease(routing, step)
  local route = routing.route
  local function routeEntry(entry)
    local first = string.find(entry, '\\n', 1, true)
    local second = string.find(entry, '\\n', first + 1, true)
    route(cjson.decode(string.sub(entry, 1, first - 1)), string.sub(entry, first + 1, second - 1), string.sub(entry, second + 1))
  end
  local function releaseFollowers(pendingKey, seqText)
    local field = seqText .. ':f'
    local held = redis.call('HGET', pendingKey, field)
    if not held then return end
    for entry in string.gmatch(held, '[^${FOLLOWER_SEPARATOR}]+') do routeEntry(entry) end
    redis.call('HDEL', pendingKey, field)
  end
  local function release(group, seq, entry, effect, answers)
    routeEntry(entry)
    if effect and effect ~= '' then step(group, seq, effect, answers) end
  end
  return { routeEntry = routeEntry, releaseFollowers = releaseFollowers, release = release }
end`,
);

/**
 * One call per batch of passages (of any groups), each passed as if on its own, in the order given. A passage
 * is a message (its seq) or a follow-up of one (`@<seq>:<ms>`: the seq it follows and when that message was
 * committed, ms since the epoch: an edit, a delete, a translation; a group change follows the group's last seq then).
 *
 * Gate per group: a message is routed to the nodes' inboxes only after every lower seq of its group, so each
 * inbox holds the group's messages (and what their release step routes) in seq order. A message whose
 * predecessor hasn't arrived is held. A seq at or below the last released one was released before (a retry
 * whose first attempt did reach Redis) and is dropped, unless the sweeper skipped it: then it is late but
 * released once rather than lost. A follow-up is routed at once when the seq it follows was released (or the
 * group has no record here at all), else held until that seq is released, right after it: nothing about a
 * message overtakes the message. Answers { per passage what the release steps appended to its answers,
 * the calling node's own deliveries and the newest id in its inbox then } (see fanout-routing.scripts; '' when
 * none). `step` is the release step's piece (ReleaseStep in ordering-gate.ts).
 */
export const gateScript = (step: LuaPiece): string =>
  luaScript(
    [NOW_MS, ROUTING, GATE_RELEASE, step],
    `local heldKey = KEYS[1]
local routeConfig, stepConfig = ARGV[1], ARGV[2]
local passages = (#ARGV - 2) / 4
-- Passage i (from 0): KEYS last, pending, skipped; ARGV group, seq (or @seq:ms), entry, effect.
local function passage(i)
  return KEYS[2 + i * 3], KEYS[3 + i * 3], KEYS[4 + i * 3], ARGV[3 + i * 4], ARGV[4 + i * 4], ARGV[5 + i * 4], ARGV[6 + i * 4]
end
local routing = Routing(cjson.decode(routeConfig))
local gate = GateRelease(routing, ${step.name}(stepConfig, routing))
local routeEntry, releaseFollowers, release = gate.routeEntry, gate.releaseFollowers, gate.release
local function hold(group, pendingKey, field, value)
  redis.call('HSET', pendingKey, field, value)
  redis.call('EXPIRE', pendingKey, 3600)
  redis.call('ZADD', heldKey, 'NX', nowMs(), group)
end
local function follow(group, lastKey, pendingKey, place, entry)
  local afterText, sinceText = string.match(place, '^(%d+):(%d+)$')
  local after, last = tonumber(afterText), tonumber(redis.call('GET', lastKey))
  if after == 0 or (last and after <= last) then return routeEntry(entry) end
  -- No record of the group and nothing held: after a long quiet its record expired, and the message went long ago.
  if not last and nowMs() - tonumber(sinceText) > ${FOLLOW_WINDOW_MS} and redis.call('EXISTS', pendingKey) == 0 then
    return routeEntry(entry)
  end
  local field = afterText .. ':f'
  local held = redis.call('HGET', pendingKey, field)
  hold(group, pendingKey, field, held and (held .. '${FOLLOWER_SEPARATOR}' .. entry) or entry)
end
local function pass(lastKey, pendingKey, skippedKey, group, seqText, entry, effect, answers)
  if string.sub(seqText, 1, 1) == '@' then return follow(group, lastKey, pendingKey, string.sub(seqText, 2), entry) end
  local seq = tonumber(seqText)
  local last = tonumber(redis.call('GET', lastKey)) or 0
  if seq <= last then
    if redis.call('SREM', skippedKey, seqText) == 1 then release(group, seq, entry, effect, answers) end
    return
  end
  if seq > last + 1 then
    redis.call('HSET', pendingKey, seqText .. ':u', effect)
    return hold(group, pendingKey, seqText, entry)
  end
  release(group, seq, entry, effect, answers)
  last = seq
  -- Usually nothing is held: one command to know it. (A held record left by an expired pending hash is the
  -- sweeper's to drop.)
  if redis.call('EXISTS', pendingKey) == 1 then
    releaseFollowers(pendingKey, seqText)
    while true do
      local nextSeq = string.format('%d', last + 1)
      local following = redis.call('HGET', pendingKey, nextSeq)
      if not following then break end
      release(group, last + 1, following, redis.call('HGET', pendingKey, nextSeq .. ':u'), answers)
      redis.call('HDEL', pendingKey, nextSeq, nextSeq .. ':u')
      releaseFollowers(pendingKey, nextSeq)
      last = last + 1
    end
    if redis.call('HLEN', pendingKey) == 0 then redis.call('ZREM', heldKey, group) end
  end
  redis.call('SET', lastKey, last == seq and seqText or string.format('%d', last), 'EX', '604800')
end
local results = {}
for i = 0, passages - 1 do
  local answers = {}
  local lastKey, pendingKey, skippedKey, group, seqText, entry, effect = passage(i)
  pass(lastKey, pendingKey, skippedKey, group, seqText, entry, effect, answers)
  results[#results + 1] = answers
end
local ownEntry, ownAfter = routing.flush()
return { results, ownEntry, ownAfter }`,
  );

/** The groups whose oldest held message has waited ARGV[1] ms or more, by the Redis clock. */
export const STALLED = luaScript(
  [NOW_MS],
  `local heldKey = KEYS[1]
local holdMs = tonumber(ARGV[1])
return redis.call('ZRANGEBYSCORE', heldKey, 0, nowMs() - holdMs)`,
);

/**
 * Lets a stalled group's held messages through in seq order, skipping the gaps (remembered, see gateScript),
 * each followed by its held follow-ups; follow-ups of a skipped seq go at its place. Only if the group is still
 * stalled when this runs. Answers { released messages, answers }.
 */
export const flushScript = (step: LuaPiece): string =>
  luaScript(
    [NOW_MS, ROUTING, GATE_RELEASE, step],
    `local lastKey, pendingKey, heldKey, skippedKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local routeConfig, group, stepConfig, holdMs = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local routing = Routing(cjson.decode(routeConfig))
local gate = GateRelease(routing, ${step.name}(stepConfig, routing))
local answers = {}
local function letThrough()
  local since = tonumber(redis.call('ZSCORE', heldKey, group))
  if not since or since > nowMs() - holdMs then return { 0, answers } end
  local places, isPlace, messages = {}, {}, 0
  for _, field in ipairs(redis.call('HKEYS', pendingKey)) do
    local s = tonumber(string.match(field, '^(%d+)$') or string.match(field, '^(%d+):f$'))
    if s and not isPlace[s] then
      isPlace[s] = true
      places[#places + 1] = s
    end
  end
  table.sort(places)
  local last = tonumber(redis.call('GET', lastKey)) or 0
  for _, s in ipairs(places) do
    local seqText = string.format('%d', s)
    local entry = redis.call('HGET', pendingKey, seqText)
    if entry then
      if last > 0 then
        for gap = math.max(last + 1, s - ${SKIPPED_MAX}), s - 1 do redis.call('SADD', skippedKey, string.format('%d', gap)) end
        redis.call('EXPIRE', skippedKey, ${SKIPPED_TTL_S})
      end
      gate.release(group, s, entry, redis.call('HGET', pendingKey, seqText .. ':u'), answers)
      messages = messages + 1
    end
    gate.releaseFollowers(pendingKey, seqText)
    if entry and s > last then last = s end
  end
  redis.call('DEL', pendingKey)
  redis.call('SET', lastKey, last, 'EX', 604800)
  redis.call('ZREM', heldKey, group)
  return { messages, answers }
end
local result = letThrough()
routing.flush()
return result`,
  );
