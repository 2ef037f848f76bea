import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DIRECT_WRITE_VERIFIED_WITH, webSocketTextFrame } from './socket-write-batch';

// ws, as engine.io loads it, writes the frames the direct write stands in for: its own framing is the reference.
const engineRequire = createRequire(join(dirname(require.resolve('engine.io')), 'engine.io.js'));
const Sender = engineRequire('ws').Sender as {
  frame(data: Buffer, options: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean }): Buffer[];
};

describe('webSocketTextFrame', () => {
  it.each([
    ['a 7-bit length', 'x'.repeat(100)],
    ['a 16-bit length, multi-byte text', ' żółć 🙂'.repeat(1_000)],
    ['a 64-bit length', 'y'.repeat(70_000)],
  ])('frames an engine.io message as ws does, for %s', (_, packet) => {
    const reference = Buffer.concat(Sender.frame(Buffer.from(`4${packet}`), { fin: true, opcode: 1, mask: false, readOnly: false, rsv1: false }));
    expect(webSocketTextFrame(packet).equals(reference)).toBe(true);
  });
});

/** The version of a package as the running code loads it: socket.io from here, engine.io by socket.io, ws by engine.io. */
function installedVersion(name: keyof typeof DIRECT_WRITE_VERIFIED_WITH): string {
  const loader = { 'socket.io': require, 'engine.io': createRequire(require.resolve('socket.io')), ws: engineRequire }[name];
  const entry = loader.resolve(name);
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === name && pkg.version) return pkg.version;
    } catch {
      // no package.json at this level: look further up
    }
  }
  throw new Error(`no package.json found above ${entry}`);
}

describe('the direct frame write (SocketWriteBatch) relies on private engine.io and ws fields', () => {
  it.each(Object.keys(DIRECT_WRITE_VERIFIED_WITH) as (keyof typeof DIRECT_WRITE_VERIFIED_WITH)[])(
    'runs with the %s version it was verified against',
    (name) => {
      const installed = installedVersion(name);
      if (installed !== DIRECT_WRITE_VERIFIED_WITH[name]) {
        throw new Error(
          `${name} is ${installed}, the direct frame write was verified with ${DIRECT_WRITE_VERIFIED_WITH[name]}. Re-check in ` +
            `server/src/fanout/socket-write-batch.ts that engine.io's Socket (readyState, writeBuffer), its WebSocket transport ` +
            `(name, socket) and ws's WebSocket (readyState, _socket, _sender) and Sender (_state, _queue, _firstFragment, ` +
            `_extensions) still mean what directWriter assumes and that ws frames as webSocketTextFrame does; run ` +
            `test/e2e/socket-write-batch.e2e-spec.ts, then update DIRECT_WRITE_VERIFIED_WITH.`,
        );
      }
    },
  );

  it("finds the Sender fields it reads on engine.io's ws Sender", () => {
    const SenderClass = engineRequire('ws').Sender as new (socket: unknown, extensions?: object) => Record<string, unknown>;
    const sender = new SenderClass({ write: () => true });
    const shape = Object.fromEntries(
      ['_state', '_queue', '_firstFragment', '_extensions'].map((f) => [f, Array.isArray(sender[f]) ? 'array' : typeof sender[f]]),
    );
    // If this fails, ws changed its Sender: re-check directWriter in socket-write-batch.ts (see the test above).
    expect(shape).toEqual({ _state: 'number', _queue: 'array', _firstFragment: 'boolean', _extensions: 'object' });
    // SENDER_IDLE in socket-write-batch.ts: a new Sender is idle.
    expect(sender._state).toBe(0);
  });
});
