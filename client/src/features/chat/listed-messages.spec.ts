import { withGroupingFlags as flags } from './chat-logic';
import { createListedCache } from './listed-messages';

describe('listed message cache', () => {
  const msg = (seq: number, userCode: string) => ({
    code: `M${seq}`,
    groupCode: 'G',
    seq,
    type: 1,
    message: 'x',
    language: 'eng',
    translation: null,
    clientKey: null,
    userCode,
    createdAt: '2026-01-01T00:00:00.000Z',
    files: [],
    deleted: false,
  });

  it('gives the same flags as withGroupingFlags and reuses unchanged rows', () => {
    const list = createListedCache();
    const a = msg(2, 'U1');
    const b = msg(3, 'U1');
    const first = list([a, b]);
    expect(first).toEqual(flags([a, b]));
    const older = msg(1, 'U2');
    const second = list([older, a, b]);
    expect(second).toEqual(flags([older, a, b]));
    expect(second[1]).toBe(first[0]);
    expect(second[2]).toBe(first[1]);
    // A message by the same author before 'a' changes a's flags: a new object for it only.
    const third = list([msg(1, 'U1'), a, b]);
    expect(third[1]).not.toBe(second[1]);
    expect(third[1].hasPrevious).toBe(true);
    expect(third[2]).toBe(second[2]);
  });
});
