import { InstanceEntity } from './instance.entity';
import { InstanceResolver, normaliseHost } from './instance-resolver.service';
import { InstancesRepository } from './instances.repository';

describe('normaliseHost', () => {
  it.each([
    ['Jobs.Example.COM', 'jobs.example.com'],
    ['jobs.example.com:8443', 'jobs.example.com'],
    ['jobs.example.com.', 'jobs.example.com'],
    ['jobs.example.com.:80', 'jobs.example.com'],
    ['  localhost:3000 ', 'localhost'],
    ['parley_server:3000', 'parley_server'],
    ['127.0.0.1:3000', '127.0.0.1'],
    ['[::1]:3000', '[::1]'],
    ['[2001:DB8::1]', '[2001:db8::1]'],
  ])('%s → %s', (header, host) => {
    expect(normaliseHost(header)).toBe(host);
  });

  it.each([undefined, '', 'evil.example/path', 'a b.example', '-bad.example', 'bad-.example', 'a..b', '[::1', '[not-ipv6]', 'x'.repeat(254), '%2e.example'])(
    'gives no host for %p',
    (header) => {
      expect(normaliseHost(header)).toBe('');
    },
  );
});

describe('InstanceResolver', () => {
  const instance = (code: string) => ({ code }) as InstanceEntity;
  const setup = () => {
    const repo = {
      findByHost: jest.fn(async (host: string) => (host === 'other.test' ? instance('other') : null)),
      findOrCreateDefault: jest.fn(async () => instance('default')),
    };
    return { repo, resolver: new InstanceResolver(repo as unknown as InstancesRepository) };
  };

  it('picks the instance claiming the host, else the default, and caches both', async () => {
    const { repo, resolver } = setup();
    expect((await resolver.resolve('Other.Test:3000')).code).toBe('other');
    expect((await resolver.resolve('other.test')).code).toBe('other');
    expect((await resolver.resolve('unknown.test')).code).toBe('default');
    expect(repo.findByHost).toHaveBeenCalledTimes(2);
  });

  it('never looks up a header that is not a host name', async () => {
    const { repo, resolver } = setup();
    expect((await resolver.resolve('evil/../x')).code).toBe('default');
    expect(repo.findByHost).not.toHaveBeenCalled();
  });

  it('forgets cached lookups on invalidate()', async () => {
    const { repo, resolver } = setup();
    await resolver.resolve('other.test');
    resolver.invalidate();
    await resolver.resolve('other.test');
    expect(repo.findByHost).toHaveBeenCalledTimes(2);
  });
});
