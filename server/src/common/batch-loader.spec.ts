import { BatchLoader } from './batch-loader';

describe('BatchLoader', () => {
  it('answers keys asked for in the same turn with one load, each caller its own answer', async () => {
    const calls: string[][] = [];
    const loader = new BatchLoader<string, number>(async (keys) => {
      calls.push(keys);
      return new Map(keys.filter((k) => k !== 'missing').map((k) => [k, k.length]));
    });
    const answers = await Promise.all([loader.get('a'), loader.get('bb'), loader.get('a'), loader.get('missing')]);
    expect(answers).toEqual([1, 2, 1, undefined]);
    expect(calls).toEqual([['a', 'bb', 'missing']]);
  });

  it('reads a key again in a later turn: nothing is cached', async () => {
    let version = 0;
    const loader = new BatchLoader<string, number>(async (keys) => new Map(keys.map((k) => [k, ++version])));
    expect(await loader.get('a')).toBe(1);
    expect(await loader.get('a')).toBe(2);
  });

  it('starts a load as soon as a batch is full', async () => {
    const sizes: number[] = [];
    const loader = new BatchLoader<number, number>(async (keys) => (sizes.push(keys.length), new Map(keys.map((k) => [k, k]))), 2);
    await Promise.all([1, 2, 3].map((k) => loader.get(k)));
    expect(sizes).toEqual([2, 1]);
  });

  it('rejects every caller of a failed load, and the next batch loads again', async () => {
    let fail = true;
    const loader = new BatchLoader<string, string>(async (keys) => {
      if (fail) throw new Error('down');
      return new Map(keys.map((k) => [k, k]));
    });
    await expect(Promise.all([loader.get('a'), loader.get('b')])).rejects.toThrow('down');
    fail = false;
    await expect(loader.get('a')).resolves.toBe('a');
  });
});
