import { TokenBucket, UserBucketRegistry } from './socket-rate-limiter';

const buckets = () => ({ send: new TokenBucket(10, 30), typing: new TokenBucket(3, 6), sync: new TokenBucket(1, 10), watch: new TokenBucket(2, 10) });

describe('UserBucketRegistry', () => {
  it('gives every socket of a user the same buckets, up to maxSockets', () => {
    const registry = new UserBucketRegistry(buckets, 10_000, 2);
    const first = registry.acquire('u1')!;
    const second = registry.acquire('u1')!;
    expect(second.buckets).toBe(first.buckets);
    expect(registry.acquire('u1')).toBeNull();
    expect(registry.acquire('u2')).not.toBeNull();
  });

  it('frees a place once per lease, however often it is released', () => {
    const registry = new UserBucketRegistry(buckets, 10_000, 2);
    const first = registry.acquire('u1')!;
    registry.acquire('u1');
    first.release();
    first.release();
    expect(registry.acquire('u1')).not.toBeNull();
    expect(registry.acquire('u1')).toBeNull();
  });

  it('keeps a drained budget across a reconnect', () => {
    const registry = new UserBucketRegistry(buckets, 10_000, 2);
    const lease = registry.acquire('u1')!;
    while (lease.buckets.send.take());
    lease.release();
    expect(registry.acquire('u1')!.buckets.send.take()).toBe(false);
  });
});
