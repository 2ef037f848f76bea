import type { ServerToClientEvents } from '@contracts/socket-events';
import type { ParleySocket } from './connection';

/** What a screen may listen to: the server's pushes, and the socket's own connect and disconnect. */
export interface SocketHandlers extends Partial<ServerToClientEvents> {
  connect?: () => void;
  disconnect?: (reason: string) => void;
}

type Listener = (...args: unknown[]) => void;

/**
 * Listens with every handler of one map and answers the call that stops exactly those, so a subscription's
 * events are written once (not once for on and again for off). Other listeners of the same events stay.
 */
export function subscribeSocket(socket: Pick<ParleySocket, 'on' | 'off'>, handlers: SocketHandlers): () => void {
  const entries = Object.entries(handlers).filter((entry): entry is [string, Listener] => typeof entry[1] === 'function');
  for (const [event, handler] of entries) socket.on(event as never, handler as never);
  return () => {
    for (const [event, handler] of entries) socket.off(event as never, handler as never);
  };
}
