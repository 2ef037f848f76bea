import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { BlockList, isIP, LookupFunction } from 'node:net';

/**
 * Which addresses a server may reach when a user hands it a URL (web-push endpoints): public unicast only.
 * Checked on the resolved address, so a name that points inside (nip.io-style names, `redis`, DNS
 * rebinding) is caught as well as a literal, and IPv6 forms that carry an IPv4 address (mapped, translated,
 * well-known NAT64, 6to4, compatible) are judged by that IPv4 address.
 */
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  // Local-use NAT64 (RFC 8215): never globally reachable, and where the IPv4 address sits inside depends on
  // the prefix length an operator chose (/48 to /96), so it cannot be judged by that address: refused whole.
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo and others)
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (with an embedded dotted IPv4 tail, if any). */
function ipv6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, '').toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1].split('.').map(Number);
    text = text.slice(0, -v4[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((g) => parseInt(g, 16));
}

const ipv4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/** The IPv4 address an IPv6 address stands for (mapped, translated, compatible, NAT64 or 6to4), if any. */
function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return ipv4Of(g[6], g[7]); // ::ffff:a.b.c.d
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return ipv4Of(g[6], g[7]); // ::ffff:0:a.b.c.d (translated)
  if (zeros(0, 6) && (g[6] !== 0 || g[7] > 1)) return ipv4Of(g[6], g[7]); // ::a.b.c.d (deprecated "compatible")
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return ipv4Of(g[6], g[7]); // 64:ff9b::/96 NAT64
  if (g[0] === 0x2002) return ipv4Of(g[1], g[2]); // 6to4
  return null;
}

/** Whether a literal IP address is public unicast (anything that is not an IP is not). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family !== 6) return false;
  const v4 = embeddedIpv4(address);
  if (v4 !== null) return isPublicAddress(v4);
  return !blocked.check(address.replace(/%.*$/, ''), 'ipv6');
}

/** Host names that never mean the public internet: single labels (`redis`, `postgres`) and local suffixes. */
export function isLocalName(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (!host.includes('.')) return true;
  return ['localhost', 'local', 'internal', 'lan', 'home.arpa', 'localdomain', 'intranet', 'corp'].some(
    (suffix) => host === suffix || host.endsWith(`.${suffix}`),
  );
}

/** Why a URL's host may not be reached, or null when it may: a local name, or an IP that is not public. */
export function hostRefusal(hostname: string): 'local-name' | 'private-address' | null {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPublicAddress(host) ? null : 'private-address';
  return isLocalName(host) ? 'local-name' : null;
}

/** The error a guarded lookup fails with when a name resolves only to addresses that are not public. */
export const PRIVATE_ADDRESS = 'EPRIVATEADDRESS';

type Resolver = (hostname: string, options: { all: true }, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/**
 * A `lookup` for sockets (http(s) agents) that resolves as usual and then keeps only public addresses, so
 * the check holds at connect time, for the address actually dialled (no window for DNS rebinding).
 */
export function publicOnlyLookup(resolve: Resolver = dnsLookup as unknown as Resolver): LookupFunction {
  return ((hostname: string, options: { all?: boolean; family?: number }, callback: (...args: unknown[]) => void) => {
    resolve(hostname, { ...options, all: true } as { all: true }, (err, addresses) => {
      if (err) return callback(err);
      const allowed = isLocalName(hostname) ? [] : addresses.filter((a) => isPublicAddress(a.address));
      if (allowed.length === 0) {
        const refused: NodeJS.ErrnoException = new Error(`${hostname} resolves to no public address`);
        refused.code = PRIVATE_ADDRESS;
        return callback(refused);
      }
      if (options?.all) return callback(null, allowed);
      return callback(null, allowed[0].address, allowed[0].family);
    });
  }) as LookupFunction;
}

/**
 * Resolves a name and tells whether every address it has is public; null when it does not resolve within
 * `timeoutMs` (a slow resolver must not hold a request).
 */
export function resolvesPublicOnly(hostname: string, resolve: Resolver = dnsLookup as unknown as Resolver, timeoutMs = 2000): Promise<boolean | null> {
  return new Promise((done) => {
    const timer = setTimeout(() => done(null), timeoutMs);
    resolve(hostname, { all: true }, (err, addresses) => {
      clearTimeout(timer);
      if (err || addresses.length === 0) return done(null);
      done(addresses.every((a) => isPublicAddress(a.address)));
    });
  });
}
