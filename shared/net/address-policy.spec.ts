import type { LookupAddress } from 'node:dns';
import { hostRefusal, isPublicAddress, PRIVATE_ADDRESS, publicOnlyLookup, resolvesPublicOnly } from './address-policy';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '::ffff:10.0.0.1',
    '::127.0.0.1',
    '64:ff9b::7f00:1',
    '::ffff:0:127.0.0.1',
    '::ffff:0:7f00:1',
    '::ffff:0:10.0.0.1',
    '::ffff:0:a9fe:a9fe',
    '64:ff9b:1::7f00:1',
    '64:ff9b:1::808:808',
    '64:ff9b:1:808:800:8::',
    '64:ff9b:1:ffff::1',
    '2002:7f00:1::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '2001:db8::1',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '142.250.74.106',
    '100.63.255.255',
    '100.128.0.1',
    '172.32.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '::ffff:0:8.8.8.8',
    '64:ff9b::808:808',
    '2a00:1450:4001::200e',
  ])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('refuses what is not an IP at all', () => {
    expect(isPublicAddress('example.com')).toBe(false);
  });
});

describe('hostRefusal', () => {
  it('refuses single-label and local names and private literals (bracketed IPv6 as URLs give them)', () => {
    expect(hostRefusal('redis')).toBe('local-name');
    expect(hostRefusal('postgres')).toBe('local-name');
    expect(hostRefusal('localhost')).toBe('local-name');
    expect(hostRefusal('push.internal')).toBe('local-name');
    expect(hostRefusal('printer.local')).toBe('local-name');
    expect(hostRefusal('[::ffff:7f00:1]')).toBe('private-address');
    expect(hostRefusal('100.64.0.1')).toBe('private-address');
  });

  it('lets public names and addresses through (names are checked again once resolved)', () => {
    expect(hostRefusal('fcm.googleapis.com')).toBeNull();
    expect(hostRefusal('8.8.8.8')).toBeNull();
  });
});

describe('publicOnlyLookup', () => {
  const fakeDns =
    (table: Record<string, string[]>) => (hostname: string, _: { all: true }, cb: (err: NodeJS.ErrnoException | null, a: LookupAddress[]) => void) => {
      const found = table[hostname];
      if (!found) return cb(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), []);
      cb(
        null,
        found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
    };
  const dns = fakeDns({
    '127.0.0.1.nip.io': ['127.0.0.1'],
    'rebind.example.com': ['93.184.215.14', '10.0.0.5'],
    'push.example.com': ['93.184.215.14'],
  });
  const lookup = (host: string, all: boolean) =>
    new Promise<{ err: NodeJS.ErrnoException | null; result: unknown }>((done) =>
      (publicOnlyLookup(dns) as unknown as (h: string, o: object, cb: (err: NodeJS.ErrnoException | null, ...r: unknown[]) => void) => void)(
        host,
        { all },
        (err, ...result) => done({ err, result }),
      ),
    );

  it('fails a name that resolves only inside, with its own error code', async () => {
    const { err } = await lookup('127.0.0.1.nip.io', false);
    expect(err?.code).toBe(PRIVATE_ADDRESS);
  });

  it('dials only the public addresses of a name, in both callback forms', async () => {
    expect((await lookup('rebind.example.com', true)).result).toEqual([[{ address: '93.184.215.14', family: 4 }]]);
    expect((await lookup('push.example.com', false)).result).toEqual(['93.184.215.14', 4]);
  });

  it('passes DNS errors on', async () => {
    expect((await lookup('nowhere.example.com', false)).err?.code).toBe('ENOTFOUND');
  });

  it('tells whether every address of a name is public', async () => {
    expect(await resolvesPublicOnly('push.example.com', dns)).toBe(true);
    expect(await resolvesPublicOnly('rebind.example.com', dns)).toBe(false);
    expect(await resolvesPublicOnly('nowhere.example.com', dns)).toBeNull();
    expect(await resolvesPublicOnly('slow.example.com', () => undefined, 20)).toBeNull();
  });
});
