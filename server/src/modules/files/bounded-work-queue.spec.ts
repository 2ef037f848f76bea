import { BoundedWorkQueue } from './bounded-work-queue';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('BoundedWorkQueue', () => {
  it('runs at most `concurrency` tasks at once and holds at most `capacity`', async () => {
    const queue = new BoundedWorkQueue(1, 2);
    const first = deferred();
    const started: string[] = [];
    expect(queue.offer('a', () => (started.push('a'), first.promise))).toBe(true);
    expect(queue.offer('b', async () => void started.push('b'))).toBe(true);
    expect(queue.offer('c', async () => void started.push('c'))).toBe(false);
    expect(started).toEqual(['a']);
    first.resolve();
    await queue.drained();
    expect(started).toEqual(['a', 'b']);
    expect(queue.size).toBe(0);
  });

  it('refuses a key it already holds, and survives a failing task', async () => {
    const queue = new BoundedWorkQueue(2, 10);
    const gate = deferred();
    expect(queue.offer('a', () => gate.promise.then(() => Promise.reject(new Error('broken'))))).toBe(true);
    expect(queue.offer('a', async () => undefined)).toBe(false);
    expect(queue.has('a')).toBe(true);
    gate.resolve();
    await queue.drained();
    expect(queue.has('a')).toBe(false);
    expect(queue.offer('a', async () => undefined)).toBe(true);
    await queue.drained();
  });
});
