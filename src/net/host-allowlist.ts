/**
 * Which hosts an outbound request may reach, and which addresses count as private.
 *
 * An allowlist entry is one of:
 * - `api.example.com`: exactly that host, any port;
 * - `api.example.com:8443`: that host on that port only;
 * - `*.example.com`: any subdomain of example.com (not example.com itself), any port;
 * - `203.0.113.7`, `[2001:db8::1]`, `127.0.0.1:8080`: an IP address (optionally with a port);
 * - `*`: any host whose name or address is public.
 *
 * Hosts are compared after WHATWG URL normalization (lower case, punycode, numeric IPv4 forms such
 * as `2130706433` or `0x7f.1` read as `127.0.0.1`, a trailing dot removed), so spelling a host
 * differently never gets around the list.
 *
 * Private addresses (loopback, RFC 1918, link-local, CGNAT, unique-local, multicast, reserved,
 * documentation ranges, and IPv4 embedded in IPv6) are refused unless the decision is explicit:
 * an IP literal written in the allowlist allows that one address (this is how tests reach
 * `127.0.0.1`), and `allowPrivateAddresses` allows them all. `*` never allows a private address,
 * and a host name that resolves to one is refused at connect time (see `safe-fetch.ts`).
 */
import { NetCodes } from './codes.js';
import { left, right, type Either } from '../core/either.js';
import { isIP } from 'node:net';
import { error, type Diagnostic } from '../core/diagnostic.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type HostPattern =
  | { readonly kind: 'any' }
  | { readonly kind: 'exact'; readonly host: string; readonly port?: number }
  | { readonly kind: 'subdomain'; readonly suffix: string; readonly port?: number };

export interface HostAllowlist {
  readonly patterns: ReadonlyArray<HostPattern>;
  /** The entries as written, for messages. */
  readonly entries: ReadonlyArray<string>;
}

export type HostDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly code: typeof NetCodes.HOST_NOT_ALLOWED | typeof NetCodes.PRIVATE_ADDRESS; readonly message: string };

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** Parses allowlist entries; every malformed entry is reported (`HOST_PATTERN_INVALID`). */
export const parseAllowedHosts = (entries: ReadonlyArray<string>): Either<ReadonlyArray<Diagnostic>, HostAllowlist> => {
  const patterns: HostPattern[] = [];
  const problems: Diagnostic[] = [];
  entries.forEach((entry, i) => {
    const p = parseHostPattern(entry);
    if (p === undefined)
      problems.push(
        error(NetCodes.HOST_PATTERN_INVALID, `allowedHosts[${i}] "${entry}" is not a host pattern`, {
          hint: 'write a host name ("api.example.com"), a wildcard ("*.example.com"), an IP ("127.0.0.1", "[::1]"), optionally with ":port", or "*"',
        }),
      );
    else patterns.push(p);
  });
  return problems.length > 0 ? left(problems) : right({ patterns, entries: [...entries] });
};

const parseHostPattern = (raw: string): HostPattern | undefined => {
  const entry = raw.trim();
  if (entry === '*') return { kind: 'any' };
  if (entry === '' || /[\s/?#@\\]/.test(entry)) return undefined;
  const wildcard = entry.startsWith('*.');
  const rest = wildcard ? entry.slice(2) : entry;
  if (rest.includes('*')) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${rest}`);
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '') return undefined;
  const host = normalizeHostname(url.hostname);
  if (host === '') return undefined;
  // URL drops the default port (80 for http): keep any port the entry spells out
  const portText = /:(\d+)$/.exec(rest)?.[1];
  const port = portText !== undefined ? Number(portText) : undefined;
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  if (wildcard) {
    if (isIP(host) !== 0) return undefined;
    return port === undefined ? { kind: 'subdomain', suffix: host } : { kind: 'subdomain', suffix: host, port };
  }
  return port === undefined ? { kind: 'exact', host } : { kind: 'exact', host, port };
};

// -------------------------------------------------------------------------------------------------
// decisions
// -------------------------------------------------------------------------------------------------

/**
 * Whether a request to `url` may be sent: the host must match an entry, and a private IP literal
 * must be listed itself (or `allowPrivateAddresses` set). Names are checked here; the addresses
 * they resolve to are checked when connecting.
 */
export const checkHost = (url: URL, allowlist: HostAllowlist, allowPrivateAddresses: boolean): HostDecision => {
  const host = normalizeHostname(url.hostname);
  const port = effectivePort(url);
  const ip = isIP(host) !== 0;
  const listed = allowlist.patterns.some((p) => matches(p, host, port, false));
  if (ip && isPrivateAddress(host) && !allowPrivateAddresses) {
    return listed
      ? { allowed: true }
      : {
          allowed: false,
          code: NetCodes.PRIVATE_ADDRESS,
          message: `${host} is a private, loopback or reserved address; list it in allowedHosts to allow it explicitly`,
        };
  }
  if (listed || allowlist.patterns.some((p) => matches(p, host, port, true))) return { allowed: true };
  return {
    allowed: false,
    code: NetCodes.HOST_NOT_ALLOWED,
    message: `host "${formatHost(host, url.port)}" is not in allowedHosts (${allowlist.entries.length === 0 ? 'the list is empty' : allowlist.entries.join(', ')})`,
  };
};

const matches = (p: HostPattern, host: string, port: number, wildcardAny: boolean): boolean => {
  switch (p.kind) {
    case 'any':
      return wildcardAny;
    case 'exact':
      return p.host === host && (p.port === undefined || p.port === port);
    case 'subdomain':
      return host.endsWith(`.${p.suffix}`) && (p.port === undefined || p.port === port);
  }
};

// -------------------------------------------------------------------------------------------------
// private addresses
// -------------------------------------------------------------------------------------------------

const PRIVATE_V4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

const PRIVATE_V6: ReadonlyArray<readonly [string, number]> = [
  ['::', 96], // unspecified, loopback, IPv4-compatible (deprecated: `::127.0.0.1`)
  ['::ffff:0:0', 96], // IPv4-mapped (`::ffff:127.0.0.1`): not globally reachable (IANA), whatever the IPv4 part
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT: `::ffff:0:127.0.0.1`)
  ['64:ff9b::', 96], // NAT64 (embeds IPv4)
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001::', 32], // Teredo (embeds IPv4)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds IPv4)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

/**
 * Whether an IP address is private, loopback, link-local, multicast or otherwise not a public
 * unicast address. The ranges that embed an IPv4 address are private whole, whatever that address:
 * IPv4-compatible (`::/96`), IPv4-mapped (`::ffff:0:0/96`), IPv4-translated (`::ffff:0:0:0/96`),
 * NAT64, 6to4, Teredo.
 * Anything that is not an IP address is reported as private (fail closed).
 */
export const isPrivateAddress = (address: string): boolean => {
  const a = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(a);
  if (family === 4) return isPrivateV4(a);
  if (family === 6) {
    const g = v6Groups(a);
    if (g === undefined) return true;
    return V6_RANGES.some(([net, prefix]) => inPrefix(g, net, prefix));
  }
  return true;
};

const V6_RANGES: ReadonlyArray<readonly [ReadonlyArray<number>, number]> = PRIVATE_V6.map(([net, prefix]) => [v6Groups(net) as number[], prefix] as const);

/** The eight 16-bit groups of an IPv6 address (a zone and an embedded IPv4 part allowed). */
function v6Groups(address: string): number[] | undefined {
  let a = address;
  const zone = a.indexOf('%');
  if (zone >= 0) a = a.slice(0, zone);
  const tail: number[] = [];
  const lastColon = a.lastIndexOf(':');
  const last = a.slice(lastColon + 1);
  if (last.includes('.')) {
    if (isIP(last) !== 4) return undefined;
    const n = v4ToInt(last);
    tail.push(n >>> 16, n & 0xffff);
    a = `${a.slice(0, lastColon + 1)}${lastColon > 0 && a[lastColon - 1] === ':' ? '' : '0'}`;
    if (a.endsWith(':0')) a = a.slice(0, -2);
    else if (a.endsWith('::')) a = a.slice(0, -2) + '::';
  }
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((h) => parseInt(h, 16)));
  const dbl = a.indexOf('::');
  let groups: number[];
  if (dbl >= 0) {
    const head = parse(a.slice(0, dbl));
    const rest = parse(a.slice(dbl + 2));
    const fill = 8 - tail.length - head.length - rest.length;
    if (fill < 0) return undefined;
    groups = [...head, ...new Array<number>(fill).fill(0), ...rest, ...tail];
  } else groups = [...parse(a), ...tail];
  return groups.length === 8 && groups.every((x) => Number.isInteger(x) && x >= 0 && x <= 0xffff) ? groups : undefined;
}

const inPrefix = (g: ReadonlyArray<number>, net: ReadonlyArray<number>, prefix: number): boolean => {
  for (let i = 0; i < 8; i++) {
    const bits = Math.max(0, Math.min(16, prefix - i * 16));
    if (bits === 0) return true;
    const mask = (0xffff << (16 - bits)) & 0xffff;
    if (((g[i] as number) & mask) !== ((net[i] as number) & mask)) return false;
  }
  return true;
};

/** IPv4 ranges as [network, mask] pairs of unsigned 32-bit integers (the hot path avoids BlockList). */
const V4_RANGES: ReadonlyArray<readonly [number, number]> = PRIVATE_V4.map(([net, prefix]) => {
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return [(v4ToInt(net) & mask) >>> 0, mask] as const;
});

function v4ToInt(a: string): number {
  const p = a.split('.');
  return ((Number(p[0]) << 24) | (Number(p[1]) << 16) | (Number(p[2]) << 8) | Number(p[3])) >>> 0;
}

const isPrivateV4 = (a: string): boolean => {
  const n = v4ToInt(a);
  for (const [net, mask] of V4_RANGES) if ((n & mask) >>> 0 === net) return true;
  return false;
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Lower case, no trailing dot, IPv6 without brackets (WHATWG URL has already done the rest). */
export const normalizeHostname = (hostname: string): string => {
  let h = hostname.toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  while (h.endsWith('.')) h = h.slice(0, -1);
  return h;
};

export const effectivePort = (url: URL): number => (url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);

const formatHost = (host: string, port: string): string => {
  const h = isIP(host) === 6 ? `[${host}]` : host;
  return port === '' ? h : `${h}:${port}`;
};
