import { createServer, Server as HttpServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { Server, Socket as ServerSocket } from 'socket.io';
import { io, Socket as ClientSocket } from 'socket.io-client';
import { directWriter, DIRECT_WRITE_VERIFIED_WITH, SocketWriteBatch } from '../../server/src/fanout/socket-write-batch';

/**
 * The direct frame write against a real Socket.IO server and client: the private engine.io and ws fields it
 * reads are there on a real connection, and its frames arrive as the events they encode. When this fails after
 * an upgrade of socket.io, engine.io or ws: re-check directWriter in server/src/fanout/socket-write-batch.ts
 * against the new libraries, then update DIRECT_WRITE_VERIFIED_WITH.
 */
describe(`SocketWriteBatch on a real connection (verified with ${JSON.stringify(DIRECT_WRITE_VERIFIED_WITH)})`, () => {
  let http: HttpServer;
  let server: Server;
  let client: ClientSocket;
  let serverSocket: ServerSocket;

  beforeEach(async () => {
    http = createServer();
    server = new Server(http, { transports: ['websocket'] });
    const connected = new Promise<ServerSocket>((resolve) => server.once('connection', resolve));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    client = io(`http://127.0.0.1:${port}`, { transports: ['websocket'], reconnection: false, forceNew: true });
    serverSocket = await connected;
    await serverSocket.join('room');
  });

  afterEach(async () => {
    client.close();
    await server.close();
    jest.restoreAllMocks();
  });

  /** The next `event` the client receives, with its arguments. */
  const received = (event: string) => new Promise<unknown[]>((resolve) => client.once(event, (...args: unknown[]) => resolve(args)));

  it("finds the private fields it writes through on a real server socket's connection", () => {
    const conn = serverSocket.conn as unknown as { transport: { socket: { _socket: unknown } } };
    // Null here means engine.io or ws renamed, removed or retyped a field directWriter reads.
    expect(directWriter(serverSocket.conn)).toBe(conn.transport.socket._socket);
  });

  it('delivers the frames it writes directly as the events they encode, in order', async () => {
    const engineWrite = jest.spyOn(serverSocket.conn, 'write');
    const events: unknown[][] = [];
    const both = new Promise<void>((resolve) => client.on('note', (...args: unknown[]) => events.push(args) === 2 && resolve()));
    const batch = new SocketWriteBatch(server.of('/'));
    batch.send(['room'], '2["note",{"n":1,"text":"żółć 🙂"}]');
    batch.send(['room', 'other'], '2["note",{"n":2}]');
    batch.release();
    await both;
    expect(events).toEqual([[{ n: 1, text: 'żółć 🙂' }], [{ n: 2 }]]);
    // Written straight to the TCP socket, not through engine.io.
    expect(engineWrite).not.toHaveBeenCalled();
  });

  it('writes through engine.io, with one warning, when the connection lacks the fields it expects', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    // The connection as a later engine.io or ws could shape it: its WebSocket without `_sender` and `_socket`.
    const conn = serverSocket.conn;
    const reshaped = new Proxy(conn, {
      get(target, prop) {
        if (prop === 'transport') return { name: 'websocket', socket: { readyState: 1 } };
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    Object.defineProperty(serverSocket, 'conn', { value: reshaped, configurable: true });
    expect(directWriter(reshaped)).toBeNull();

    for (const n of [1, 2]) {
      const note = received('note');
      const batch = new SocketWriteBatch(server.of('/'));
      batch.send(['room'], `2["note",{"n":${n}}]`);
      batch.release();
      expect(await note).toEqual([{ n }]);
    }
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toContain('writing through engine.io instead');
  });
});
