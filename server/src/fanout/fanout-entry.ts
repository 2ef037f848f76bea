import { luaPiece } from './lua-script';

/** One delivery: a Socket.IO packet, encoded once where it was routed, for this node's sockets in these rooms. */
export interface FanoutDelivery {
  rooms: string[];
  packet: string;
}

/**
 * An inbox entry's text, as the routing script writes it (fanout-routing.scripts, `route`): one line per
 * delivery, `room,room,…<TAB>packet`. The packet is Socket.IO's own encoding of the event
 * (`2["event",payload]`), written to each socket as it is, so a node neither parses nor re-encodes what it
 * delivers. JSON text never holds a raw tab or newline, and room names hold none.
 */
export function decodeFanoutEntry(entry: string): FanoutDelivery[] {
  return entry.split('\n').map((line) => {
    const tab = line.indexOf('\t');
    return { rooms: line.slice(0, tab).split(','), packet: line.slice(tab + 1) };
  });
}

/** The same text in Lua: `roomLine(room, event, payloadJson)` is one delivery's line for a single room. */
export const ROOM_LINE = luaPiece(
  'roomLine',
  [],
  `local function roomLine(room, event, payloadJson)
  return room .. '\\t2["' .. event .. '",' .. payloadJson .. ']'
end`,
);

/** `fanoutLine(rooms, event, payloadJson)`: one delivery's line for a list of rooms. */
export const FANOUT_LINE = luaPiece(
  'fanoutLine',
  [ROOM_LINE],
  `local function fanoutLine(rooms, event, payloadJson)
  return roomLine(table.concat(rooms, ','), event, payloadJson)
end`,
);
