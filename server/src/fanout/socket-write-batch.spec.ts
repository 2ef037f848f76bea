import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { webSocketTextFrame } from './socket-write-batch';

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
