import { nextCreep } from './loaders';

describe('creeping progress', () => {
  it('moves up but never past 90 % on its own', () => {
    let value = 5;
    const seen: number[] = [];
    for (let i = 0; i < 500; i += 1) {
      const next = nextCreep(value);
      expect(next).toBeGreaterThanOrEqual(value);
      value = next;
      seen.push(value);
    }
    expect(Math.max(...seen)).toBe(90);
    expect(seen[0]).toBeGreaterThan(5);
  });
});
