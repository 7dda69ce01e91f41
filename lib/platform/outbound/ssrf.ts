/**
 * The SSRF guard for URLs customers choose: webhook URLs, and the external links the knowledge-bank
 * link checker visits. Either makes our servers send requests to an address a customer chose, so a
 * webhook URL is checked when it is saved and, for both, the address actually connected to is
 * checked again on every delivery (a name can resolve to a public address at create time and to
 * 169.254.169.254 a minute later: DNS rebinding).
 *
 * Only globally reachable unicast addresses pass. IPv6 forms that embed an IPv4 address
 * (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by that IPv4
 * address. Host spellings such as `2130706433`, `0x7f.1` or `0177.0.0.1` never reach this code
 * unnormalised: the WHATWG URL parser turns them into dotted quads first.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { config } from '../config.ts';

export interface GuardOptions {
  /** Lets loopback and private addresses through (the local sandbox). */
  allowPrivateNetworks: boolean;
  /** Accepts `http:` besides `https:`. */
  allowHttp: boolean;
}

export function guardOptionsFromEnvironment(): GuardOptions {
  return { allowPrivateNetworks: config.webhookAllowPrivateNetworks(), allowHttp: config.webhookAllowHttp() };
}

/** A URL or address the guard refuses; its message is safe to show the webhook's owner. */
export class BlockedDestinationError extends Error {
  override name = 'BlockedDestinationError';
  readonly code = 'EBLOCKEDDESTINATION';
}

const NON_PUBLIC_V4: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, including the cloud metadata service 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
];

const NON_PUBLIC_V6: [string, number][] = [
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID, …)
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
  ['5f00::', 16], // SRv6 segment identifiers
];

const nonPublicV4 = new BlockList();
for (const [network, prefix] of NON_PUBLIC_V4) nonPublicV4.addSubnet(network, prefix, 'ipv4');
const nonPublicV6 = new BlockList();
for (const [network, prefix] of NON_PUBLIC_V6) nonPublicV6.addSubnet(network, prefix, 'ipv6');
/** Global unicast; everything else (loopback, ULA fc00::/7, link-local fe80::/10, multicast ff00::/8, …) is outside it. */
const globalUnicastV6 = new BlockList();
globalUnicastV6.addSubnet('2000::', 3, 'ipv6');

/** The 16 bytes of an IPv6 address (with or without brackets or a zone), or null if it is not one. */
export function parseIpv6(text: string): Uint8Array | null {
  let address = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  address = address.split('%')[0]!;
  if (isIP(address) !== 6) return null;
  let tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    tail = dotted[1]!.split('.').map(Number);
    address = `${address.slice(0, -dotted[1]!.length)}0:0`;
  }
  const [head, rest] = address.includes('::') ? address.split('::') : [address, undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').filter((g) => g !== '') : []);
  const left = groups(head);
  const right = groups(rest);
  const words = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right].map((g) => parseInt(g, 16));
  const bytes = new Uint8Array(16);
  words.forEach((word, i) => {
    bytes[i * 2] = word >> 8;
    bytes[i * 2 + 1] = word & 0xff;
  });
  if (tail.length === 4) bytes.set(tail, 12);
  return bytes;
}

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b);

/** The IPv4 address an IPv6 address carries (mapped, NAT64, 6to4), if any. */
function embeddedIpv4(bytes: Uint8Array): string | null {
  const quad = (offset: number) => Array.from(bytes.subarray(offset, offset + 4)).join('.');
  if (startsWith(bytes, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff])) return quad(12); // ::ffff:a.b.c.d
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return quad(12); // 64:ff9b::a.b.c.d
  if (startsWith(bytes, [0x20, 0x02])) return quad(2); // 2002:AABB:CCDD::/48
  return null;
}

/** True when `address` (an IP literal) is a globally reachable unicast address. */
export function isPublicAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare.split('%')[0]!);
  if (family === 4) return !nonPublicV4.check(bare, 'ipv4');
  if (family !== 6) return false;
  const bytes = parseIpv6(bare)!;
  const v4 = embeddedIpv4(bytes);
  if (v4) return isPublicAddress(v4);
  const canonical = bare.split('%')[0]!;
  return globalUnicastV6.check(canonical, 'ipv6') && !nonPublicV6.check(canonical, 'ipv6');
}

function assertAddressAllowed(address: string, options: GuardOptions): void {
  if (!options.allowPrivateNetworks && !isPublicAddress(address)) {
    throw new BlockedDestinationError(`the address ${address} is not a public internet address`);
  }
}

/** The URL's host without IPv6 brackets. */
function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Scheme and credential rules, which need no network. Throws BlockedDestinationError. */
export function assertUrlShapeAllowed(url: URL, options: GuardOptions): void {
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && options.allowHttp)) {
    throw new BlockedDestinationError(options.allowHttp ? 'the URL must use https or http' : 'the URL must use https');
  }
  if (url.username || url.password) throw new BlockedDestinationError('the URL must not contain credentials');
  if (!url.hostname) throw new BlockedDestinationError('the URL has no host');
  const host = hostOf(url);
  if (isIP(host)) assertAddressAllowed(host, options);
}

/**
 * The check run when a URL is saved: its shape, then every address its host resolves to.
 * Throws BlockedDestinationError (refused) or UnresolvableHostError (no address at all).
 */
export async function assertUrlAllowed(url: URL, options: GuardOptions = guardOptionsFromEnvironment()): Promise<void> {
  assertUrlShapeAllowed(url, options);
  const host = hostOf(url);
  if (isIP(host)) return;
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true }, (error, found) => (error ? reject(new UnresolvableHostError(host)) : resolve(found))),
  );
  for (const { address } of addresses) assertAddressAllowed(address, options);
}

export class UnresolvableHostError extends Error {
  override name = 'UnresolvableHostError';
  constructor(readonly host: string) {
    super(`the host ${host} does not resolve to an address`);
  }
}

/**
 * A `lookup` for http.request that resolves as usual and refuses the connection when any address
 * of the name is not public: rebinding answers that mix public and private addresses fail too.
 */
export function guardedLookup(options: GuardOptions): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      try {
        for (const { address } of addresses) assertAddressAllowed(address, options);
      } catch (blocked) {
        return callback(blocked as NodeJS.ErrnoException, '', 0);
      }
      if (lookupOptions.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/** The last line of defence: the peer of an open socket (whatever resolved or proxied it) must be public. */
export function assertConnectedPeerAllowed(remoteAddress: string | undefined, options: GuardOptions): void {
  if (!remoteAddress) throw new BlockedDestinationError('the connection has no peer address');
  assertAddressAllowed(remoteAddress, options);
}
