import { Injectable } from '@nestjs/common';
import type { Server } from 'socket.io';
import { ClientToServerEvents, groupRoom, instanceRoom, ServerToClientEvents, userRoom } from '#shared/contracts/socket-events';

export type IoServer = Server<ClientToServerEvents, ServerToClientEvents>;

type Args<E extends keyof ServerToClientEvents> = Parameters<ServerToClientEvents[E]>;

/** The one typed way to push to people: by user (user:<code> rooms), to a group's watching moderators, to an instance. */
@Injectable()
export class SocketEmitter {
  private server?: IoServer;

  attach(server: IoServer): void {
    this.server = server;
  }

  get io(): IoServer | undefined {
    return this.server;
  }

  /** One emit to the users' rooms and, optionally, the group's watchers; a socket in several of them gets it once. */
  toUsers<E extends keyof ServerToClientEvents>(userCodes: string[], watchersOf: string | null, event: E, ...args: Args<E>): void {
    if (!this.server) return;
    const rooms = userCodes.map(userRoom);
    if (watchersOf) rooms.push(groupRoom(watchersOf));
    if (rooms.length === 0) return;
    this.server.to(rooms).emit(event, ...args);
  }

  /** Every connected user of one instance (and only of that one). */
  toInstance<E extends keyof ServerToClientEvents>(instanceId: string, event: E, ...args: Args<E>): void {
    this.server?.to(instanceRoom(instanceId)).emit(event, ...args);
  }

  toUser<E extends keyof ServerToClientEvents>(userCode: string, event: E, ...args: Args<E>): void {
    this.server?.to(userRoom(userCode)).emit(event, ...args);
  }
}
