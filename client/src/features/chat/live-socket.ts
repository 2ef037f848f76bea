import { isRealtimeConnected, type ParleySocket } from '@/realtime/connection';
import { realtimeConnection } from '@/realtime/RealtimeConnection';

/** How long the chat waits for the server to acknowledge an event before treating it as lost. */
export const ACK_TIMEOUT_MS = 10_000;

/** The live socket, or null while it is down (then REST and polling take over). */
export function liveSocket(): ParleySocket | null {
  const socket = realtimeConnection().socket;
  return socket && isRealtimeConnected() ? socket : null;
}
