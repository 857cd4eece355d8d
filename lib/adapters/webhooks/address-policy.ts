import { ipv4Prefix, ipv6Prefix, parseIp } from './ip-literal.js';

/**
 * Which IP addresses a webhook may be delivered to (SPEC §4.15: never a private, link-local
 * or metadata address). Default-deny for IPv6: only global unicast (2000::/3) minus the
 * special-purpose blocks is allowed; for IPv4 every special-purpose block of the IANA
 * registry that matters for SSRF is listed. Loopback is allowed only when the caller says so
 * (sandbox merchants testing against their own machine).
 */
export type RefusalReason = 'private' | 'loopback' | 'link-local' | 'metadata' | 'unspecified' | 'multicast' | 'reserved';
export type AddressVerdict = { allowed: true } | { allowed: false; reason: RefusalReason };

type Rule<T> = readonly [matches: (value: T) => boolean, reason: RefusalReason];
const v4 = (prefix: string, bits: number, reason: RefusalReason): Rule<number> => [ipv4Prefix(prefix, bits), reason];
const v6 = (prefix: string, bits: number, reason: RefusalReason): Rule<bigint> => [ipv6Prefix(prefix, bits), reason];

/** First match wins: the exact metadata endpoints come before the ranges that hold them. */
const IPV4_RULES: readonly Rule<number>[] = [
  v4('169.254.169.254', 32, 'metadata'), // EC2 / GCP / Azure instance metadata
  v4('169.254.170.2', 32, 'metadata'), // ECS task credentials
  v4('169.254.170.23', 32, 'metadata'), // EKS Pod Identity credentials
  v4('100.100.100.200', 32, 'metadata'), // Alibaba Cloud metadata
  v4('192.0.0.192', 32, 'metadata'), // Oracle Cloud (legacy) metadata
  v4('0.0.0.0', 8, 'unspecified'), // "this network": 0.0.0.0 connects to the local host on Linux
  v4('127.0.0.0', 8, 'loopback'),
  v4('10.0.0.0', 8, 'private'),
  v4('100.64.0.0', 10, 'private'), // carrier-grade NAT shared space
  v4('172.16.0.0', 12, 'private'),
  v4('192.168.0.0', 16, 'private'),
  v4('169.254.0.0', 16, 'link-local'),
  v4('192.0.0.0', 24, 'reserved'), // IETF protocol assignments
  v4('192.0.2.0', 24, 'reserved'), // TEST-NET-1
  v4('192.88.99.0', 24, 'reserved'), // 6to4 relay anycast
  v4('198.18.0.0', 15, 'reserved'), // benchmarking
  v4('198.51.100.0', 24, 'reserved'), // TEST-NET-2
  v4('203.0.113.0', 24, 'reserved'), // TEST-NET-3
  v4('224.0.0.0', 4, 'multicast'),
  v4('240.0.0.0', 4, 'reserved'), // future use, and 255.255.255.255 broadcast
];

const IPV6_RULES: readonly Rule<bigint>[] = [
  v6('fd00:ec2::254', 128, 'metadata'), // EC2 instance metadata over IPv6
  v6('fd00:ec2::23', 128, 'metadata'), // EKS Pod Identity over IPv6
  v6('::', 128, 'unspecified'),
  v6('::1', 128, 'loopback'),
  v6('fc00::', 7, 'private'), // unique local
  v6('fe80::', 10, 'link-local'),
  v6('ff00::', 8, 'multicast'),
  v6('64:ff9b:1::', 48, 'reserved'), // local-use NAT64
  v6('2001:db8::', 32, 'reserved'), // documentation
  v6('2001::', 23, 'reserved'), // IETF protocol assignments (Teredo, benchmarking, ORCHID…)
  v6('3fff::', 20, 'reserved'), // documentation
];
const GLOBAL_UNICAST = ipv6Prefix('2000::', 3);

/** IPv6 forms that carry an IPv4 address: the verdict is that of the IPv4 address. */
const IPV4_MAPPED = ipv6Prefix('::ffff:0:0', 96);
const NAT64 = ipv6Prefix('64:ff9b::', 96);
const SIX_TO_FOUR = ipv6Prefix('2002::', 16);

const ALLOWED: AddressVerdict = { allowed: true };
const refused = (reason: RefusalReason): AddressVerdict => ({ allowed: false, reason });

export function classifyAddress(ip: string, options: { allowLoopback: boolean }): AddressVerdict {
  const parsed = parseIp(ip);
  // Fail closed: a string that is not an IP address is nothing anyone may connect to.
  if (!parsed) return refused('reserved');
  if (parsed.family === 4) return classifyIpv4(parsed.value, options.allowLoopback);
  const value = parsed.value;
  // ::ffff:127.0.0.1 reaches the same socket as 127.0.0.1, so it gets the same verdict.
  if (IPV4_MAPPED(value)) return classifyIpv4(Number(value & 0xffffffffn), options.allowLoopback);
  // A NAT64 or 6to4 gateway would translate these to the embedded IPv4 address on its side;
  // that address must be public (loopback there is never "the merchant's own machine").
  if (NAT64(value)) return classifyIpv4(Number(value & 0xffffffffn), false);
  if (SIX_TO_FOUR(value)) return classifyIpv4(Number((value >> 80n) & 0xffffffffn), false);
  const rule = IPV6_RULES.find(([matches]) => matches(value));
  if (rule) return rule[1] === 'loopback' && options.allowLoopback ? ALLOWED : refused(rule[1]);
  return GLOBAL_UNICAST(value) ? ALLOWED : refused('reserved');
}

function classifyIpv4(value: number, allowLoopback: boolean): AddressVerdict {
  const rule = IPV4_RULES.find(([matches]) => matches(value));
  if (!rule) return ALLOWED;
  return rule[1] === 'loopback' && allowLoopback ? ALLOWED : refused(rule[1]);
}
