// The bare Socket.IO baseline: no auth, no database, no Redis. Each socket names its user and groups in the
// handshake; message:send is acknowledged and relayed to the group's room with a per-group seq, exactly the
// shape Parley emits, so the load generator can drive both with the same traffic.
// Usage: node --import tsx scripts/load/bare-relay.mts [port]   (prints "listening <port>" when ready)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Server } = require('socket.io') as typeof import('socket.io');
type Socket = import('socket.io').Socket;

interface SendPayload {
  groupCode: string;
  clientKey: string;
  message: string;
}

const port = Number(process.argv[2] ?? 0);
const http = createServer();
const io = new Server(http, { maxHttpBufferSize: 64 * 1024 });
const seqs = new Map<string, number>();
let messages = 0;

io.on('connection', (socket: Socket) => {
  const { userCode, groups } = socket.handshake.auth ?? {};
  socket.data.userCode = String(userCode);
  for (const g of Array.isArray(groups) ? groups : []) socket.join(`group:${g}`);
  socket.on('message:send', (payload: SendPayload, ack?: (reply: unknown) => void) => {
    const seq = (seqs.get(payload.groupCode) ?? 0) + 1;
    seqs.set(payload.groupCode, seq);
    const message = {
      code: `m${++messages}`,
      groupCode: payload.groupCode,
      seq,
      type: 1,
      message: payload.message,
      userCode: socket.data.userCode,
      clientKey: payload.clientKey,
      createdAt: new Date().toISOString(),
    };
    // As the product's contract: the sending socket has the message in its acknowledgement only.
    socket.to(`group:${payload.groupCode}`).emit('message:new', message);
    if (typeof ack === 'function') ack({ ok: true, message });
  });
});

http.listen(port, '127.0.0.1', () => console.log(`listening ${(http.address() as AddressInfo).port}`));
const stop = () => io.close(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
