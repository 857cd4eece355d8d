import { isIPv4, isIPv6 } from 'node:net';

/**
 * IP address text → integers, so that the address policy can compare prefixes with plain
 * arithmetic instead of depending on how a Node version's BlockList treats IPv4-mapped
 * addresses. Inputs are validated with `node:net` first; anything else is `undefined`.
 */
export type ParsedIp = { family: 4; value: number } | { family: 6; value: bigint };

export function parseIp(text: string): ParsedIp | undefined {
  if (isIPv4(text)) return { family: 4, value: ipv4ToNumber(text) };
  if (isIPv6(text)) return { family: 6, value: ipv6ToBigInt(text) };
  return undefined;
}

/** Strict dotted decimal only (what `isIPv4` accepts): `a.b.c.d` → unsigned 32-bit. */
export function ipv4ToNumber(text: string): number {
  return text.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

/** Any form `isIPv6` accepts: `::` compression, a trailing dotted IPv4, a `%zone` suffix. */
function ipv6ToBigInt(text: string): bigint {
  const address = text.split('%')[0] ?? '';
  const groupsOf = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [Number.parseInt(group, 16)];
          const v4 = ipv4ToNumber(group);
          return [v4 >>> 16, v4 & 0xffff];
        });
  const halves = address.split('::');
  const head = groupsOf(halves[0] ?? '');
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? '') : [];
  const zeros = halves.length === 2 ? new Array<number>(8 - head.length - tail.length).fill(0) : [];
  return [...head, ...zeros, ...tail].reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

/** `prefix/bits` → a matcher for the parsed address of the same family. */
export function ipv4Prefix(prefix: string, bits: number): (value: number) => boolean {
  const shift = 32 - bits;
  const base = ipv4ToNumber(prefix);
  return (value) => (bits === 0 ? true : Math.floor(value / 2 ** shift) === Math.floor(base / 2 ** shift));
}

export function ipv6Prefix(prefix: string, bits: number): (value: bigint) => boolean {
  const shift = BigInt(128 - bits);
  const base = ipv6ToBigInt(prefix);
  return (value) => value >> shift === base >> shift;
}
