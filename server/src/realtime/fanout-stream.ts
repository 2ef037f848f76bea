import { RedisService } from '#shared/redis/redis.service';

/**
 * The one Redis stream every node reads and delivers from (see OrderedFanoutService). Messages and every
 * `unread:count` push go through it, each written in the same script that changes what it announces, so a
 * client receives a user's counts in the order they were computed.
 */
export const fanoutStreamKey = (redis: RedisService): string => redis.key('fanout', 'stream');

export const FANOUT_STREAM_MAX_LEN = 100_000;

/** One delivery: a Socket.IO packet, encoded once by its writer, for this node's sockets in these rooms. */
export interface FanoutDelivery {
  rooms: string[];
  packet: string;
}

/**
 * A stream entry's text: one line per delivery, `room,room,…<TAB>packet`. The packet is Socket.IO's own
 * encoding of the event (`2["event",payload]`), written to each socket as it is, so the readers neither parse
 * nor re-encode what every node delivers; JSON never holds a raw tab or newline, and room names hold none.
 */
export function encodeFanoutEntry(deliveries: readonly FanoutDelivery[]): string {
  return deliveries.map((d) => `${d.rooms.join(',')}\t${d.packet}`).join('\n');
}

export function decodeFanoutEntry(entry: string): FanoutDelivery[] {
  return entry.split('\n').map((line) => {
    const tab = line.indexOf('\t');
    return { rooms: line.slice(0, tab).split(','), packet: line.slice(tab + 1) };
  });
}

/** Socket.IO's encoding of an event without binary parts or acknowledgement, on the main namespace. */
export function socketPacket(event: string, payload: unknown): string {
  return `2${JSON.stringify([event, payload])}`;
}

/** The same two encodings in Lua, for the scripts that write entries: `fanoutLine(rooms, event, payloadTable)`. */
export const FANOUT_ENTRY_LUA = `
local function fanoutLine(rooms, event, payload)
  return table.concat(rooms, ',') .. '\\t2["' .. event .. '",' .. cjson.encode(payload) .. ']'
end`;
