import type { Namespace, Socket } from 'socket.io';
import { instanceRoom, userRoom } from '#shared/contracts/socket-events';

type Adapter = Namespace['adapter'];
type MissedPacket = unknown[];

/** What a restored session brought back, held until the handshake knows who is connecting. */
interface Withheld {
  owner: string | undefined;
  missedPackets: MissedPacket[];
}

/** Keyed by the restored `socket.data` object, which Socket.IO hands to the recovered socket as it is. */
const withheld = new WeakMap<object, Withheld>();

/** Socket.IO's packet type of an event (socket.io-parser's PacketType.EVENT). */
const EVENT_PACKET = 2;

function ownerOf(data: unknown): string | undefined {
  const code = (data as { userCode?: unknown } | null | undefined)?.userCode;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The rooms a session may keep: its socket's own id, its user's room and its user's instance (the only instance
 * room the server ever has a socket join), nothing granted per connection.
 */
function keptRoom(room: string, sid: string, owner: string | undefined): boolean {
  return room === sid || (owner !== undefined && (room === userRoom(owner) || room.startsWith(instanceRoom(''))));
}

/**
 * Connection-state recovery on the server's terms. Left alone, Socket.IO gives a recovered socket every room it
 * held and writes it the packets sent to those rooms while it was away, before any middleware has run and to
 * whoever presents the session's pid and offset. With this guard on the adapter:
 * - a dropped socket's session keeps only its own id, its user's room and instance: what it missed meanwhile is what any new
 *   socket of that user would get. Rooms granted per connection (a moderator's watch, presence watches) end with
 *   the connection, as the server already decided when it saw the socket go;
 * - a restored session comes back with no rooms and its missed packets withheld. The handshake authenticates the
 *   user, checks the session is theirs (`takeRecovery`) and only then hands the packets over; the connection
 *   joins the rooms the server decides now, like any other.
 */
export function guardSessionRecovery<A extends Adapter>(adapter: A): A {
  const persist = adapter.persistSession.bind(adapter);
  const restore = adapter.restoreSession.bind(adapter);
  adapter.persistSession = (session) => {
    const owner = ownerOf(session.data);
    persist({ ...session, rooms: session.rooms.filter((room) => keptRoom(room, session.sid, owner)) });
  };
  adapter.restoreSession = async (pid, offset) => {
    const session = await restore(pid, offset);
    if (!session) return session;
    const owner = ownerOf(session.data);
    // A session saved with more rooms (by a process without this guard) missed packets of rooms it no longer
    // holds, and which room a packet was for is gone: its missed packets are dropped (sync brings messages and edits).
    const kept = session.rooms.every((room) => keptRoom(room, session.sid, owner));
    const data = { ...(session.data as object) };
    withheld.set(data, { owner, missedPackets: kept ? session.missedPackets : [] });
    return { ...session, rooms: [], missedPackets: [], data };
  };
  return adapter;
}

export interface Recovery {
  /** whose session it was (undefined: unknown, so nobody's) */
  owner: string | undefined;
  /** writes the packets the session missed, as Socket.IO would have, ahead of the `connect` */
  replay(): void;
}

/** For a socket Socket.IO recovered: whose session it is and what it missed; null for a new session. */
export function takeRecovery(socket: Socket): Recovery | null {
  if (!socket.recovered) return null;
  const data = socket.data as object;
  const held = withheld.get(data);
  withheld.delete(data);
  const writer = socket as unknown as { packet(packet: { type: number; data: MissedPacket }): void };
  return {
    owner: held?.owner,
    replay: () => held?.missedPackets.forEach((data) => writer.packet({ type: EVENT_PACKET, data })),
  };
}
