import { liveSocket } from './live-socket';

/** Tells the chat's other people that I am typing (only while live: a typing sign is worth nothing late). */
export function sendTyping(groupCode: string): void {
  liveSocket()?.emit('typing', { groupCode });
}
