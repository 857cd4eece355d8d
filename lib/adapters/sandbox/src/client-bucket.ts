import { isIPv4, isIPv6 } from 'node:net';

/**
 * The unit a per-client limit counts: an IPv4 address, or the /64 an IPv6 address belongs to
 * (one client is normally given a whole /64, so counting single addresses would give it 2^64
 * budgets). An IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export function clientBucket(ip: string): string {
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return ip;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  return `${expandIPv6(ip).slice(0, 4).join(':')}::/64`;
}

/** Eight 16-bit groups, without leading zeros; an embedded IPv4 tail becomes two groups. */
function expandIPv6(ip: string): string[] {
  let text = ip.toLowerCase().replace(/%.*$/, '');
  const v4 = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16).toString(16));
}
