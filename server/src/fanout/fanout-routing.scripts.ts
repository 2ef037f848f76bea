import { FANOUT_LINE_LUA } from './fanout-entry';
import { NOW_MS } from './redis-clock.scripts';

/**
 * Routing chat deliveries to the nodes that have sockets in their rooms (see docs/message-path.md, routing).
 *
 * Each node registers the fan-out rooms it holds sockets in and reads one stream of its own, its inbox. The
 * registry is one hash, room → the ids of the nodes in it (`,id,id,`), so a delivery's rooms are looked up in
 * one HMGET. Every script that writes to the fan-out (the ordering gate, the unread owner's scripts) includes
 * ROUTE and calls `route(rooms, event, payloadJson)` for each delivery, then `flushRoutes()` once: each node
 * found in one of the rooms gets one inbox entry holding, in call order, only the deliveries for its rooms.
 * One script call writes all of it, so a node's inbox receives a group's messages in the order the gate
 * released them.
 *
 * A script run for a node (the gate's calls, `routeConfig(prefix, node)`) hands that node's own entry back in
 * its answer instead of writing it to the node's inbox: `ownEntry`, with `ownAfter`, the newest id in the
 * inbox then. The node delivers it after the inbox entries up to that id and before any later one
 * (DeliveryOrder), the place it would have had in its inbox, without the inbox's write, read and wake-up.
 * When the node's inbox is gone, its entry is written (and refused) as any other's.
 *
 * A node is alive while its inbox exists (the node refreshes its TTL): an XADD that finds no inbox
 * (NOMKSTREAM) removes that node from the rooms it was found in. The registry's start key holds the Redis time
 * the registry was (re)started: it has no TTL, so it is missing only when Redis lost its data. For a while
 * after that (`young` ms), every flush also writes the whole entry, with the nodes it reached, to the recent
 * stream, which a node re-registering after the loss delivers from first (FanoutNode.register).
 */

/** Key names under the deployment's prefix; the scripts build the same from `routeConfig.p`. */
export const fanoutKeys = {
  rooms: (prefix: string) => `${prefix}fanout:rooms`,
  inbox: (prefix: string, node: string) => `${prefix}fanout:inbox:${node}`,
  stats: (prefix: string, node: string) => `${prefix}fanout:node:${node}`,
  registry: (prefix: string) => `${prefix}fanout:registry`,
  recent: (prefix: string) => `${prefix}fanout:recent`,
};

/** A room's field in the registry hash, as its list of node ids (tools and tests read it with HGET). */
export const roomNodeIds = (field: string | null | undefined): string[] => (field ?? '').split(',').filter(Boolean);

/** The registry field of a room these nodes are in (`,id,id,`, as the scripts write it), for tools and tests that set one up. */
export const roomNodesField = (nodeIds: readonly string[]): string => `,${nodeIds.join(',')},`;

/** A node's inbox is capped at about this many entries (a dead node's until its inbox expires). */
export const INBOX_MAX_LEN = 20_000;
/** After Redis lost its data, flushes also go to the recent stream this long (ms): nodes re-register within it. */
export const RECENT_WINDOW_MS = 15_000;
const RECENT_MAX_LEN = 200_000;

const configs = new Map<string, string>();

/**
 * The routing constants every routing script receives as `routeConfig` (JSON). With `ownNode`, that node's
 * entry comes back in the script's answer (`ownEntry`) instead of going to its inbox.
 */
export function routeConfig(prefix: string, ownNode = ''): string {
  const name = `${prefix}\n${ownNode}`;
  let config = configs.get(name);
  if (!config) configs.set(name, (config = JSON.stringify({ p: prefix, n: INBOX_MAX_LEN, w: RECENT_WINDOW_MS, r: RECENT_MAX_LEN, o: ownNode })));
  return config;
}

/**
 * The registry's Lua, shared by the routing and the registration scripts. Needs `routeConfig` defined before it.
 * Defines `nowMs()` (redis-clock.scripts.ts) for the scripts that include it. `registryAge()` answers how long
 * ago (ms, Redis clock) the registry was started, starting it now when Redis lost it; `changeRooms(node, from)`
 * adds the node to the rooms in ARGV[from..] and removes it from those after a '-' separator.
 */
const REGISTRY = `
${NOW_MS}
local routing = cjson.decode(routeConfig)
local roomsKey = routing.p .. 'fanout:rooms'
local function registryAge()
  local key = routing.p .. 'fanout:registry'
  local now = nowMs()
  local since = tonumber(redis.call('GET', key))
  if not since then
    since = now
    redis.call('SET', key, now)
  end
  return now - since
end
local function joinRoom(room, node)
  local ids = redis.call('HGET', roomsKey, room)
  if not ids then
    redis.call('HSET', roomsKey, room, ',' .. node .. ',')
  elseif not string.find(ids, ',' .. node .. ',', 1, true) then
    redis.call('HSET', roomsKey, room, ids .. node .. ',')
  end
end
local function leaveRoom(room, node)
  local ids = redis.call('HGET', roomsKey, room)
  if not ids then return end
  local from, to = string.find(ids, ',' .. node .. ',', 1, true)
  if not from then return end
  ids = string.sub(ids, 1, from) .. string.sub(ids, to + 1)
  if ids == ',' then redis.call('HDEL', roomsKey, room) else redis.call('HSET', roomsKey, room, ids) end
end
local function changeRooms(node, from)
  local adding = true
  for i = from, #ARGV do
    if ARGV[i] == '-' then adding = false
    elseif adding then joinRoom(ARGV[i], node)
    else leaveRoom(ARGV[i], node) end
  end
end`;

/**
 * The one Lua fragment that writes to the fan-out. Needs `routeConfig` defined before it. `payloadJson` is
 * JSON text, inserted as it is; `event` is one of the fan-out's event names. `routeLine(room, line)` routes a
 * delivery to one room whose line the caller built with `roomLine` (fanout-entry.ts), with no table for its rooms
 * (the unread counts, one per recipient per message). An entry is text of one line per
 * delivery (fanout-entry.ts). The whole entry for the recent stream is only built while the registry is young.
 * Scripts that include it also get the registry's `nowMs()`.
 */
export const ROUTE = `
${FANOUT_LINE_LUA}
${REGISTRY}
local routeNodes, routeOrder, routeAll, routed = {}, {}, {}, 0
local roomNodes, routeYoung = {}, nil
local ownEntry, ownAfter = '', ''
local function lookUpRooms(rooms)
  local missing
  for _, room in ipairs(rooms) do
    if not roomNodes[room] then
      missing = missing or {}
      missing[#missing + 1] = room
    end
  end
  if not missing then return end
  local found = redis.call('HMGET', roomsKey, unpack(missing))
  for i, room in ipairs(missing) do
    local nodes = {}
    if found[i] then
      for node in string.gmatch(found[i], '[^,]+') do nodes[#nodes + 1] = node end
    end
    roomNodes[room] = nodes
  end
end
local function entryOf(node)
  local entry = routeNodes[node]
  if not entry then
    entry = { lines = {}, rooms = {} }
    routeNodes[node] = entry
    routeOrder[#routeOrder + 1] = node
  end
  return entry
end
-- One delivery's line, already built (fanoutLine), for one room: appended for each of the room's nodes.
local function routeLine(room, line)
  if not roomNodes[room] then lookUpRooms({ room }) end
  for _, node in ipairs(roomNodes[room]) do
    local entry = entryOf(node)
    entry.lines[#entry.lines + 1] = line
    entry.rooms[#entry.rooms + 1] = room
  end
  routed = routed + 1
  if routeYoung == nil then routeYoung = registryAge() < routing.w end
  if routeYoung then routeAll[#routeAll + 1] = line end
end
local function route(rooms, event, payloadJson)
  if #rooms == 1 then return routeLine(rooms[1], roomLine(rooms[1], event, payloadJson)) end
  lookUpRooms(rooms)
  local perNode, order = {}, {}
  for _, room in ipairs(rooms) do
    for _, node in ipairs(roomNodes[room]) do
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
    local entry = entryOf(node)
    entry.lines[#entry.lines + 1] = fanoutLine(perNode[node], event, payloadJson)
    for _, room in ipairs(perNode[node]) do entry.rooms[#entry.rooms + 1] = room end
  end
  routed = routed + 1
  if routeYoung == nil then routeYoung = registryAge() < routing.w end
  if routeYoung then routeAll[#routeAll + 1] = fanoutLine(rooms, event, payloadJson) end
end
local function flushRoutes()
  if routed == 0 then return end
  local reached = {}
  for _, node in ipairs(routeOrder) do
    local entry = routeNodes[node]
    local inbox = routing.p .. 'fanout:inbox:' .. node
    if node == routing.o and redis.call('EXISTS', inbox) == 1 then
      local newest = redis.call('XREVRANGE', inbox, '+', '-', 'COUNT', 1)[1]
      ownEntry = table.concat(entry.lines, '\\n')
      ownAfter = newest and newest[1] or '0-0'
      reached[#reached + 1] = node
    elseif redis.call('XADD', inbox, 'NOMKSTREAM', 'MAXLEN', '~', routing.n, '*', 'e', table.concat(entry.lines, '\\n')) then
      reached[#reached + 1] = node
    else
      for _, room in ipairs(entry.rooms) do leaveRoom(room, node) end
      roomNodes = {}
    end
  end
  if routeYoung then
    local recent = routing.p .. 'fanout:recent'
    redis.call('XADD', recent, 'MAXLEN', '~', routing.r, '*', 't', table.concat(reached, ','), 'e', table.concat(routeAll, '\\n'))
    redis.call('PEXPIRE', recent, routing.w * 2)
  end
  routeNodes, routeOrder, routeAll, routed = {}, {}, {}, 0
end`;

/**
 * A node (re)asserts itself: creates its inbox (empty, with a TTL), adds its id to the rooms of ARGV[5..] and
 * removes it from those after the '-' separator, and records its stats. Answers the recent stream's newest id
 * when the registry is young (what was written before this call and not to this node is to be delivered
 * from there), else ''.
 * KEYS: inbox, stats. ARGV: routeConfig, node id, ttl ms, pid, rooms to add..., '-', rooms to remove...
 */
export const REGISTER = `
local routeConfig = ARGV[1]
${REGISTRY}
local inbox, stats = KEYS[1], KEYS[2]
local node, ttl, pid = ARGV[2], ARGV[3], ARGV[4]
if redis.call('EXISTS', inbox) == 0 then
  redis.call('XADD', inbox, 'MAXLEN', '0', '*', 'created', '1')
end
redis.call('PEXPIRE', inbox, ttl)
redis.call('HSET', stats, 'pid', pid)
redis.call('PEXPIRE', stats, ttl)
changeRooms(node, 5)
if registryAge() >= routing.w then return '' end
local newest = redis.call('XREVRANGE', routing.p .. 'fanout:recent', '+', '-', 'COUNT', 1)
if #newest == 0 then return '' end
return newest[1][1]`;

/**
 * Room changes of a live node: ARGV[3..] rooms to add, '-', rooms to remove. Answers 0, changing nothing,
 * when the node's inbox is gone (it must register again), else 1.
 * KEYS: inbox. ARGV: routeConfig, node id, rooms...
 */
export const SUBSCRIBE = `
local routeConfig = ARGV[1]
${REGISTRY}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
changeRooms(ARGV[2], 3)
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
local routeConfig = ARGV[1]
${REGISTRY}
for i = 3, #ARGV do leaveRoom(ARGV[i], ARGV[2]) end
redis.call('DEL', KEYS[1], KEYS[2])
return 1`;
