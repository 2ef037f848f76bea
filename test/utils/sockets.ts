import { io, Socket } from 'socket.io-client';
import { createTestApp, ProviderOverride, TestApp } from './create-app';
import { within } from './wait';

export interface ListeningApp extends TestApp {
  url: string;
}

/** The real app listening on a free port, for socket clients. */
export async function listenTestApp(overrides: Record<string, string> = {}, providers: ProviderOverride[] = []): Promise<ListeningApp> {
  const t = await createTestApp(overrides, providers);
  await t.app.listen(0, '127.0.0.1');
  const { port } = t.app.getHttpServer().address() as { port: number };
  return { ...t, url: `http://127.0.0.1:${port}` };
}

const open: Socket[] = [];

/** A connected socket.io-client socket (websocket transport unless told), or the connect error's message. */
export function connect(
  url: string,
  token: string | undefined,
  options: { reconnection?: boolean; transports?: ('websocket' | 'polling')[] } = {},
): Promise<Socket> {
  const socket = io(url, {
    auth: token === undefined ? {} : { token },
    transports: options.transports ?? ['websocket'],
    reconnection: options.reconnection ?? false,
    forceNew: true,
  });
  open.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

export function closeAllSockets(): void {
  while (open.length) open.pop()!.close();
}

/** Emits with an acknowledgement and resolves with the reply (rejects after a timeout). */
export function call<T = any>(socket: Socket, event: string, payload: unknown, timeoutMs = 5000): Promise<T> {
  return socket.timeout(timeoutMs).emitWithAck(event, payload) as Promise<T>;
}

/** Resolves with the next `event` payload that matches, or rejects after a timeout. */
export function next<T = any>(socket: Socket, event: string, match: (payload: T) => boolean = () => true, timeoutMs = 5000): Promise<T> {
  let handler!: (payload: T) => void;
  const arrived = new Promise<T>((resolve) => {
    handler = (payload: T) => {
      if (match(payload)) resolve(payload);
    };
    socket.on(event, handler);
  });
  return within(arrived, timeoutMs, event).finally(() => socket.off(event, handler));
}

/** Collects every `event` payload from now on. */
export function record<T = any>(socket: Socket, event: string): T[] {
  const seen: T[] = [];
  socket.on(event, (payload: T) => seen.push(payload));
  return seen;
}
