// Where the service's own outgoing requests (webhooks, OAuth client metadata documents) may not go
// (SSRF): private, loopback, link-local (cloud metadata), shared, reserved, multicast and
// documentation ranges, and metadata host names. Loopback is allowed only for local development and
// tests (KERF_WEBHOOK_ALLOW_HTTP_LOOPBACK=1, KERF_OAUTH_ALLOW_LOOPBACK_CLIENT_METADATA=1).
//
// The check is made on every address a name resolves to, inside the connection's own lookup: the
// socket then connects to an address that was checked, and a refused name gets no TCP connection at
// all (a DNS answer cannot swap in a private address between a check and the connect).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) blocked.addSubnet(net, bits, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const METADATA_HOSTS = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) as its IPv4 address. */
function unmap(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return { address: m[1], family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export function isLoopback(address: string): boolean {
  const a = unmap(address);
  return loopback.check(a.address, a.family);
}

/** Why this resolved address may not be called, or null. */
export function refuseAddress(address: string, allowLoopback: boolean): string | null {
  const a = unmap(address.replace(/^\[|\]$/g, ''));
  if (loopback.check(a.address, a.family)) return allowLoopback ? null : `${address} is a loopback address`;
  if (blocked.check(a.address, a.family)) return `${address} is a private, link-local or reserved address`;
  return null;
}

export function refuseHostName(host: string): string | null {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (METADATA_HOSTS.has(h)) return `${host} is a cloud metadata host`;
  return null;
}

/** Name resolution: every address of `hostname` (dns.lookup with all: true, the system resolver). */
export type Resolve = (hostname: string, family: number) => Promise<LookupAddress[]>;

export const systemResolve: Resolve = (hostname, family) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, family }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

/** The code of the error a refused name fails its connection with. */
export const REFUSED_ADDRESS = 'EADDRESSREFUSED';

/**
 * A `lookup` for http(s).request / net.connect that resolves the name, refuses the whole name when
 * any of its addresses may not be called (error code REFUSED_ADDRESS), and else hands on exactly the
 * checked addresses, so the socket connects to one of them.
 */
export function guardedLookup(allowLoopback: boolean, resolveName: Resolve = systemResolve): LookupFunction {
  return ((hostname: string, options: { all?: boolean; family?: number }, callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    const named = refuseHostName(hostname);
    if (named) { callback(Object.assign(new Error(`refused: ${named}`), { code: REFUSED_ADDRESS }), ''); return; }
    resolveName(hostname, options.family ?? 0).then((addresses) => {
      if (addresses.length === 0) { callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), ''); return; }
      for (const a of addresses) {
        const why = refuseAddress(a.address, allowLoopback);
        if (why) { callback(Object.assign(new Error(`refused: ${hostname} resolves to ${why.replace(/^\S+ is /, '')}`), { code: REFUSED_ADDRESS }), ''); return; }
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    }, (err: Error) => callback(err, ''));
  }) as unknown as LookupFunction;
}
