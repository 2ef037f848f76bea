import type { Socket } from 'socket.io';

/**
 * Events a socket sent that are not answered yet (their handler is still running: an insert batch, a sync).
 * A drain disconnects a socket only once this is 0, so every acknowledgement it owes goes out first.
 * A number per socket, changed twice per event: nothing is allocated on the send path.
 */
const unanswered = new WeakMap<Socket, number>();
const settledListeners = new WeakMap<Socket, () => void>();

export function eventStarted(socket: Socket): void {
  unanswered.set(socket, (unanswered.get(socket) ?? 0) + 1);
}

export function eventSettled(socket: Socket): void {
  const left = (unanswered.get(socket) ?? 1) - 1;
  unanswered.set(socket, left);
  if (left === 0) settledListeners.get(socket)?.();
}

/** Resolves once the socket owes no answer, or after `timeoutMs` (a handler that never answers cannot hold a drain). */
export function whenSettled(socket: Socket, timeoutMs: number): Promise<void> {
  if (!unanswered.get(socket)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      settledListeners.delete(socket);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    settledListeners.set(socket, done);
  });
}
