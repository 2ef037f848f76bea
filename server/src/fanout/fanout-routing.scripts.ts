import { FANOUT_LINE, ROOM_LINE } from './fanout-entry';
import { luaPiece, luaScript } from './lua-script';
import { NOW_MS } from './redis-clock.scripts';

/**
 * Routing chat deliveries to the nodes that have sockets in their rooms (see docs/message-path.md, routing).
 *
 * Each node registers the fan-out rooms it holds sockets in and reads one stream of its own, its inbox. The
 * registry is one hash, room → the ids of the nodes in it (`,id,id,`), so a delivery's rooms are looked up in
 * one HMGET. Every script that writes to the fan-out (the ordering gate, the unread owner's scripts) makes a
 * `Routing(config)` (ROUTING), calls its `route(rooms, event, payloadJson)` for each delivery, then `flush()` once:
 * each node found in one of the rooms gets one inbox entry holding, in call order, only the deliveries for its rooms.
 * One script call writes all of it, so a node's inbox receives a group's messages in the order the gate
 * released them.
 *
 * A script run for a node (the gate's calls, `routeConfig(prefix, node)`) hands that node's own entry back in
 * its answer instead of writing it to the node's inbox: `flush()` answers it, with the newest id in the
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

/** Key names under the deployment's prefix; the scripts build the same from the routing config's `p`. */
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
 * The routing constants every routing script receives as its `routeConfig` argument (JSON: p = key prefix,
 * n = inbox length, w = recent window ms, r = recent stream length, o = own node). With `ownNode`, that node's
 * entry comes back in the script's answer instead of going to its inbox.
 */
export function routeConfig(prefix: string, ownNode = ''): string {
  const name = `${prefix}\n${ownNode}`;
  let config = configs.get(name);
  if (!config) configs.set(name, (config = JSON.stringify({ p: prefix, n: INBOX_MAX_LEN, w: RECENT_WINDOW_MS, r: RECENT_MAX_LEN, o: ownNode })));
  return config;
}

/**
 * `Registry(config)`, config being the decoded routeConfig: the room → nodes hash. `age()` answers how long ago
 * (ms, Redis clock) the registry was started, starting it now when Redis lost it; `changeRooms(node, list, from)`
 * adds the node to the rooms in list[from..] and removes it from those after a '-' separator.
 */
export const REGISTRY = luaPiece(
  'Registry',
  [NOW_MS],
  `local function Registry(config)
  local roomsKey = config.p .. 'fanout:rooms'
  local function age()
    local key = config.p .. 'fanout:registry'
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
  local function changeRooms(node, list, from)
    local adding = true
    for i = from, #list do
      if list[i] == '-' then adding = false
      elseif adding then joinRoom(list[i], node)
      else leaveRoom(list[i], node) end
    end
  end
  return { age = age, leaveRoom = leaveRoom, changeRooms = changeRooms }
end`,
);

/**
 * `Routing(config)`, config being the decoded routeConfig: the one writer to the fan-out. `route(rooms, event,
 * payloadJson)` routes one delivery (`payloadJson` is JSON text, inserted as it is; `event` one of the fan-out's
 * event names); `routeLine(room, line)` routes a delivery to one room whose line the caller built with `roomLine`
 * (fanout-entry.ts), with no table for its rooms (the unread counts, one per recipient per message). `flush()` writes each node's entry, one line per delivery
 * (fanout-entry.ts), and answers the own node's entry and the newest id in its inbox then ('', '' when none).
 * The whole entry for the recent stream is only built while the registry is young.
 */
export const ROUTING = luaPiece(
  'Routing',
  [REGISTRY, ROOM_LINE, FANOUT_LINE],
  `local function Routing(config)
  local registry = Registry(config)
  local roomsKey = config.p .. 'fanout:rooms'
  local routeNodes, routeOrder, routeAll, routed = {}, {}, {}, 0
  local roomNodes, young = {}, nil
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
  -- One delivery's line, already built (roomLine), for one room: appended for each of the room's nodes.
  local function routeLine(room, line)
    if not roomNodes[room] then lookUpRooms({ room }) end
    for _, node in ipairs(roomNodes[room]) do
      local entry = entryOf(node)
      entry.lines[#entry.lines + 1] = line
      entry.rooms[#entry.rooms + 1] = room
    end
    routed = routed + 1
    if young == nil then young = registry.age() < config.w end
    if young then routeAll[#routeAll + 1] = line end
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
    if young == nil then young = registry.age() < config.w end
    if young then routeAll[#routeAll + 1] = fanoutLine(rooms, event, payloadJson) end
  end
  local function flush()
    local ownEntry, ownAfter = '', ''
    if routed == 0 then return ownEntry, ownAfter end
    local reached = {}
    for _, node in ipairs(routeOrder) do
      local entry = routeNodes[node]
      local inbox = config.p .. 'fanout:inbox:' .. node
      if node == config.o and redis.call('EXISTS', inbox) == 1 then
        local newest = redis.call('XREVRANGE', inbox, '+', '-', 'COUNT', 1)[1]
        ownEntry = table.concat(entry.lines, '\\n')
        ownAfter = newest and newest[1] or '0-0'
        reached[#reached + 1] = node
      elseif redis.call('XADD', inbox, 'NOMKSTREAM', 'MAXLEN', '~', config.n, '*', 'e', table.concat(entry.lines, '\\n')) then
        reached[#reached + 1] = node
      else
        for _, room in ipairs(entry.rooms) do registry.leaveRoom(room, node) end
        roomNodes = {}
      end
    end
    if young then
      local recent = config.p .. 'fanout:recent'
      redis.call('XADD', recent, 'MAXLEN', '~', config.r, '*', 't', table.concat(reached, ','), 'e', table.concat(routeAll, '\\n'))
      redis.call('PEXPIRE', recent, config.w * 2)
    end
    routeNodes, routeOrder, routeAll, routed = {}, {}, {}, 0
    return ownEntry, ownAfter
  end
  return { route = route, routeLine = routeLine, flush = flush }
end`,
);

/**
 * A node (re)asserts itself: creates its inbox (empty, with a TTL), adds its id to the rooms listed and removes
 * it from those after the '-' separator, and records its stats. Answers the recent stream's newest id when the
 * registry is young (what was written before this call and not to this node is to be delivered from there),
 * else ''.
 */
export const REGISTER = luaScript(
  [REGISTRY],
  `local inbox, stats = KEYS[1], KEYS[2]
local routeConfig, node, ttl, pid = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local ROOM_CHANGES = 5 -- ARGV[5..]: rooms to add, '-', rooms to remove
local config = cjson.decode(routeConfig)
local registry = Registry(config)
if redis.call('EXISTS', inbox) == 0 then
  redis.call('XADD', inbox, 'MAXLEN', '0', '*', 'created', '1')
end
redis.call('PEXPIRE', inbox, ttl)
redis.call('HSET', stats, 'pid', pid)
redis.call('PEXPIRE', stats, ttl)
registry.changeRooms(node, ARGV, ROOM_CHANGES)
if registry.age() >= config.w then return '' end
local newest = redis.call('XREVRANGE', config.p .. 'fanout:recent', '+', '-', 'COUNT', 1)
if #newest == 0 then return '' end
return newest[1][1]`,
);

/**
 * Room changes of a live node. Answers 0, changing nothing, when the node's inbox is gone (it must register
 * again), else 1.
 */
export const SUBSCRIBE = luaScript(
  [REGISTRY],
  `local inbox = KEYS[1]
local routeConfig, node = ARGV[1], ARGV[2]
local ROOM_CHANGES = 3 -- ARGV[3..]: rooms to add, '-', rooms to remove
if redis.call('EXISTS', inbox) == 0 then return 0 end
Registry(cjson.decode(routeConfig)).changeRooms(node, ARGV, ROOM_CHANGES)
return 1`,
);

/**
 * Keeps a node alive: refreshes its inbox's and stats' TTL and writes its counters. Answers 0 when the inbox
 * is gone (Redis lost it, or it expired): the node must register again.
 */
export const HEARTBEAT = luaScript(
  [],
  `local inbox, stats = KEYS[1], KEYS[2]
local ttl = ARGV[1]
local COUNTERS = 2 -- ARGV[2..]: field/value pairs of counters
if redis.call('EXISTS', inbox) == 0 then return 0 end
redis.call('PEXPIRE', inbox, ttl)
if #ARGV >= COUNTERS then redis.call('HSET', stats, unpack(ARGV, COUNTERS)) end
redis.call('PEXPIRE', stats, ttl)
return 1`,
);

/** A node leaving cleanly: out of every room it holds, its inbox and stats gone. */
export const UNREGISTER = luaScript(
  [REGISTRY],
  `local inbox, stats = KEYS[1], KEYS[2]
local routeConfig, node = ARGV[1], ARGV[2]
local ROOMS = 3 -- ARGV[3..]: the rooms it holds
local registry = Registry(cjson.decode(routeConfig))
for i = ROOMS, #ARGV do registry.leaveRoom(ARGV[i], node) end
redis.call('DEL', inbox, stats)
return 1`,
);
