import { FANOUT_LINE_LUA } from './fanout-entry';

/**
 * Routing chat deliveries to the nodes that have sockets in their rooms (see docs/scale-out.md).
 *
 * Each node registers the fan-out rooms it holds sockets in (a Redis set per room of node ids) and reads one
 * stream of its own, its inbox. Every script that writes to the fan-out (the ordering gate, the unread owner's
 * scripts) includes ROUTE and calls `route(rooms, event, payloadJson)` for each delivery, then `flushRoutes()`
 * once: each node whose id is in one of the rooms' sets gets one inbox entry holding, in call order, only the
 * deliveries for its rooms. One script call writes all of it, so a node's inbox receives a group's messages in
 * the order the gate released them.
 *
 * A node is alive while its inbox exists (the node refreshes its TTL): an XADD that finds no inbox
 * (NOMKSTREAM) removes that node from the rooms it was found in. The registry key holds the Redis time the
 * room sets were (re)started: it has no TTL, so it is missing only when Redis lost its data. For a while
 * after that (`young` ms), every flush also writes the whole entry, with the nodes it reached, to the recent
 * stream, which a node re-registering after the loss delivers from first (FanoutNode.register).
 */

/** Key names under the deployment's prefix; the scripts build the same from `routeConfig.p`. */
export const fanoutKeys = {
  room: (prefix: string, room: string) => `${prefix}fanout:room:${room}`,
  inbox: (prefix: string, node: string) => `${prefix}fanout:inbox:${node}`,
  stats: (prefix: string, node: string) => `${prefix}fanout:node:${node}`,
  registry: (prefix: string) => `${prefix}fanout:registry`,
  recent: (prefix: string) => `${prefix}fanout:recent`,
};

/** A node's inbox is capped at about this many entries (a dead node's until its inbox expires). */
export const INBOX_MAX_LEN = 20_000;
/** After Redis lost its data, flushes also go to the recent stream this long (ms): nodes re-register within it. */
export const RECENT_WINDOW_MS = 15_000;
const RECENT_MAX_LEN = 200_000;

const configs = new Map<string, string>();

/** The routing constants every routing script receives as `routeConfig` (JSON). */
export function routeConfig(prefix: string): string {
  let config = configs.get(prefix);
  if (!config) configs.set(prefix, (config = JSON.stringify({ p: prefix, n: INBOX_MAX_LEN, w: RECENT_WINDOW_MS, r: RECENT_MAX_LEN })));
  return config;
}

/**
 * The one Lua fragment that writes to the fan-out. Needs `routeConfig` defined before it. `payloadJson` is
 * JSON text, inserted as it is; `event` is one of the fan-out's event names. An entry is text of one line per
 * delivery (fanout-entry.ts).
 */
export const ROUTE = `
${FANOUT_LINE_LUA}
local routing = cjson.decode(routeConfig)
local routeNodes, routeOrder, routeAll = {}, {}, {}
local function routeNowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local roomNodes = {}
local function nodesOf(room)
  local nodes = roomNodes[room]
  if not nodes then
    nodes = redis.call('SMEMBERS', routing.p .. 'fanout:room:' .. room)
    roomNodes[room] = nodes
  end
  return nodes
end
local function route(rooms, event, payloadJson)
  local perNode, order = {}, {}
  for _, room in ipairs(rooms) do
    for _, node in ipairs(nodesOf(room)) do
      local list = perNode[node]
      if not list then
        list = {}
        perNode[node] = list
        order[#order + 1] = node
      end
      list[#list + 1] = room
    end
  end
  for _, node in ipairs(order) do
    local entry = routeNodes[node]
    if not entry then
      entry = { lines = {}, rooms = {} }
      routeNodes[node] = entry
      routeOrder[#routeOrder + 1] = node
    end
    entry.lines[#entry.lines + 1] = fanoutLine(perNode[node], event, payloadJson)
    for _, room in ipairs(perNode[node]) do entry.rooms[#entry.rooms + 1] = room end
  end
  routeAll[#routeAll + 1] = fanoutLine(rooms, event, payloadJson)
end
local function flushRoutes()
  if #routeAll == 0 then return end
  local reached = {}
  for _, node in ipairs(routeOrder) do
    local entry = routeNodes[node]
    local inbox = routing.p .. 'fanout:inbox:' .. node
    if redis.call('XADD', inbox, 'NOMKSTREAM', 'MAXLEN', '~', routing.n, '*', 'e', table.concat(entry.lines, '\\n')) then
      reached[#reached + 1] = node
    else
      for _, room in ipairs(entry.rooms) do redis.call('SREM', routing.p .. 'fanout:room:' .. room, node) end
      roomNodes = {}
    end
  end
  local registry = routing.p .. 'fanout:registry'
  local now = routeNowMs()
  local since = tonumber(redis.call('GET', registry))
  if not since then
    since = now
    redis.call('SET', registry, now)
  end
  if now - since < routing.w then
    local recent = routing.p .. 'fanout:recent'
    redis.call('XADD', recent, 'MAXLEN', '~', routing.r, '*', 't', table.concat(reached, ','), 'e', table.concat(routeAll, '\\n'))
    redis.call('PEXPIRE', recent, routing.w * 2)
  end
  routeNodes, routeOrder, routeAll = {}, {}, {}
end`;

/**
 * A node (re)asserts itself: creates its inbox (empty, with a TTL), adds its id to the sets of ARGV[5..] and
 * removes it from those after the '-' separator, and records its stats. Answers the recent stream's newest id
 * when the registry is young (what was written before this call and not to this node is to be delivered
 * from there), else ''.
 * KEYS: inbox, stats. ARGV: routeConfig, node id, ttl ms, pid, rooms to add..., '-', rooms to remove...
 */
export const REGISTER = `
local routeConfig = ARGV[1]
${ROUTE}
local inbox, stats = KEYS[1], KEYS[2]
local node, ttl, pid = ARGV[2], ARGV[3], ARGV[4]
if redis.call('EXISTS', inbox) == 0 then
  redis.call('XADD', inbox, 'MAXLEN', '0', '*', 'created', '1')
end
redis.call('PEXPIRE', inbox, ttl)
redis.call('HSET', stats, 'pid', pid)
redis.call('PEXPIRE', stats, ttl)
local adding = true
for i = 5, #ARGV do
  if ARGV[i] == '-' then adding = false
  elseif adding then redis.call('SADD', routing.p .. 'fanout:room:' .. ARGV[i], node)
  else redis.call('SREM', routing.p .. 'fanout:room:' .. ARGV[i], node) end
end
local registry = routing.p .. 'fanout:registry'
local now = routeNowMs()
local since = tonumber(redis.call('GET', registry))
if not since then
  since = now
  redis.call('SET', registry, now)
end
if now - since >= routing.w then return '' end
local newest = redis.call('XREVRANGE', routing.p .. 'fanout:recent', '+', '-', 'COUNT', 1)
if #newest == 0 then return '' end
return newest[1][1]`;

/**
 * Room changes of a live node: ARGV[3..] rooms to add, '-', rooms to remove. Answers 0, changing nothing,
 * when the node's inbox is gone (it must register again), else 1.
 * KEYS: inbox. ARGV: routeConfig, node id, rooms...
 */
export const SUBSCRIBE = `
local routing = cjson.decode(ARGV[1])
local node = ARGV[2]
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local adding = true
for i = 3, #ARGV do
  if ARGV[i] == '-' then adding = false
  elseif adding then redis.call('SADD', routing.p .. 'fanout:room:' .. ARGV[i], node)
  else redis.call('SREM', routing.p .. 'fanout:room:' .. ARGV[i], node) end
end
return 1`;

/**
 * Keeps a node alive: refreshes its inbox's and stats' TTL and writes its counters. Answers 0 when the inbox
 * is gone (Redis lost it, or it expired): the node must register again.
 * KEYS: inbox, stats. ARGV: ttl ms, then field/value pairs of counters.
 */
export const HEARTBEAT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
if #ARGV > 1 then redis.call('HSET', KEYS[2], unpack(ARGV, 2)) end
redis.call('PEXPIRE', KEYS[2], ARGV[1])
return 1`;

/** A node leaving cleanly: out of every room it holds (ARGV[3..]), its inbox and stats gone. KEYS: inbox, stats. ARGV: routeConfig, node id, rooms... */
export const UNREGISTER = `
local routing = cjson.decode(ARGV[1])
for i = 3, #ARGV do redis.call('SREM', routing.p .. 'fanout:room:' .. ARGV[i], ARGV[2]) end
redis.call('DEL', KEYS[1], KEYS[2])
return 1`;
