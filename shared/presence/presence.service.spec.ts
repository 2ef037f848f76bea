import { presenceBucket } from './presence.service';

describe('presenceBucket', () => {
  it.each([
    [0, 'available'],
    [1, 'available'],
    [2, 'away'],
    [60, 'away'],
    [61, 'unavailable'],
    [null, 'unavailable'],
  ] as const)('%s minutes → %s', (minutes, bucket) => {
    expect(presenceBucket(minutes)).toBe(bucket);
  });
});
