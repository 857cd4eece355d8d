import { describe, expect, it } from 'vitest';
import { classifyAddress, type RefusalReason } from '../../lib/adapters/webhooks/address-policy.js';

/**
 * SPEC §4.15: never a private, link-local or metadata address. Every range is tested at its
 * edges: the first and last address inside are refused, the neighbours outside allowed.
 */
type Expected = RefusalReason | 'allowed';
const verdictOf = (ip: string, allowLoopback = false): Expected => {
  const verdict = classifyAddress(ip, { allowLoopback });
  return verdict.allowed ? 'allowed' : verdict.reason;
};

const IPV4: [string, Expected][] = [
  ['8.8.8.8', 'allowed'],
  ['1.1.1.1', 'allowed'],
  ['0.0.0.0', 'unspecified'],
  ['0.255.255.255', 'unspecified'],
  ['1.0.0.0', 'allowed'],
  ['9.255.255.255', 'allowed'],
  ['10.0.0.0', 'private'],
  ['10.255.255.255', 'private'],
  ['11.0.0.0', 'allowed'],
  ['100.63.255.255', 'allowed'],
  ['100.64.0.0', 'private'],
  ['100.127.255.255', 'private'],
  ['100.128.0.0', 'allowed'],
  ['100.100.100.200', 'metadata'],
  ['126.255.255.255', 'allowed'],
  ['127.0.0.0', 'loopback'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.255', 'loopback'],
  ['128.0.0.0', 'allowed'],
  ['169.253.255.255', 'allowed'],
  ['169.254.0.0', 'link-local'],
  ['169.254.255.255', 'link-local'],
  ['169.254.169.254', 'metadata'],
  ['169.254.169.253', 'link-local'],
  ['169.254.170.2', 'metadata'],
  ['169.254.170.23', 'metadata'],
  ['169.255.0.0', 'allowed'],
  ['172.15.255.255', 'allowed'],
  ['172.16.0.0', 'private'],
  ['172.31.255.255', 'private'],
  ['172.32.0.0', 'allowed'],
  ['191.255.255.255', 'allowed'],
  ['192.0.0.0', 'reserved'],
  ['192.0.0.255', 'reserved'],
  ['192.0.0.192', 'metadata'],
  ['192.0.1.0', 'allowed'],
  ['192.0.2.1', 'reserved'],
  ['192.88.99.1', 'reserved'],
  ['192.167.255.255', 'allowed'],
  ['192.168.0.0', 'private'],
  ['192.168.255.255', 'private'],
  ['192.169.0.0', 'allowed'],
  ['198.17.255.255', 'allowed'],
  ['198.18.0.0', 'reserved'],
  ['198.19.255.255', 'reserved'],
  ['198.20.0.0', 'allowed'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.9', 'reserved'],
  ['223.255.255.255', 'allowed'],
  ['224.0.0.0', 'multicast'],
  ['239.255.255.255', 'multicast'],
  ['240.0.0.0', 'reserved'],
  ['255.255.255.254', 'reserved'],
  ['255.255.255.255', 'reserved'],
];

const IPV6: [string, Expected][] = [
  ['2606:4700:4700::1111', 'allowed'],
  ['2a00:1450:4001:81b::200e', 'allowed'],
  ['2000::', 'allowed'],
  ['3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'allowed'],
  ['::', 'unspecified'],
  ['0:0:0:0:0:0:0:0', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::2', 'reserved'], // IPv4-compatible (deprecated) space: nothing routable
  ['fc00::', 'private'],
  ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'private'],
  ['fd00:ec2::254', 'metadata'],
  ['fd00:ec2::23', 'metadata'],
  ['fd00:ec2::253', 'private'],
  ['fe80::', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'link-local'],
  ['fec0::1', 'reserved'], // deprecated site-local, outside global unicast
  ['ff00::', 'multicast'],
  ['ff02::1', 'multicast'],
  ['64:ff9b:1::1', 'reserved'],
  ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['2001:db8::', 'reserved'],
  ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['2001:db9::1', 'allowed'],
  ['2001::1', 'reserved'], // Teredo
  ['2001:1ff::1', 'reserved'],
  ['2001:200::1', 'allowed'],
  ['3fff::1', 'reserved'],
  ['100::1', 'reserved'], // discard-only
  ['5f00::1', 'reserved'], // outside 2000::/3
];

/** IPv6 forms that carry an IPv4 address get that address's verdict. */
const EMBEDDED_IPV4: [string, Expected][] = [
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:a00:1', 'private'],
  ['::ffff:169.254.169.254', 'metadata'],
  ['::ffff:a9fe:a9fe', 'metadata'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['::ffff:192.168.1.1', 'private'],
  ['::ffff:8.8.8.8', 'allowed'],
  ['::ffff:808:808', 'allowed'],
  ['64:ff9b::8.8.8.8', 'allowed'], // well-known NAT64: public when the embedded address is
  ['64:ff9b::a00:1', 'private'],
  ['64:ff9b::a9fe:a9fe', 'metadata'],
  ['2002:0808:0808::1', 'allowed'], // 6to4 of 8.8.8.8
  ['2002:a9fe:a9fe::1', 'metadata'],
  ['2002:c0a8:0101::1', 'private'],
];

describe('classifyAddress', () => {
  it.each([...IPV4, ...IPV6, ...EMBEDDED_IPV4])('%s → %s', (ip, expected) => {
    expect(verdictOf(ip)).toBe(expected);
  });

  it.each(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1'])('%s is allowed with allowLoopback', (ip) => {
    expect(verdictOf(ip, false)).toBe('loopback');
    expect(verdictOf(ip, true)).toBe('allowed');
  });

  it('allowLoopback opens loopback only: every other refusal stands', () => {
    for (const [ip, expected] of [...IPV4, ...IPV6, ...EMBEDDED_IPV4]) {
      if (expected !== 'loopback') expect([ip, verdictOf(ip, true)]).toEqual([ip, expected]);
    }
  });

  it('a loopback address embedded in NAT64 or 6to4 is never "the merchant’s own machine"', () => {
    expect(verdictOf('64:ff9b::7f00:1', true)).toBe('loopback');
    expect(verdictOf('2002:7f00:0001::1', true)).toBe('loopback');
  });

  it.each(['', 'localhost', 'example.com', '127.1', '0x7f000001', '2130706433', '010.0.0.1', '1.2.3.4.5', '[::1]', '::1::2', ' 8.8.8.8'])(
    'fails closed on %j, which is not an IP address',
    (text) => {
      expect(classifyAddress(text, { allowLoopback: true })).toEqual({ allowed: false, reason: 'reserved' });
    },
  );
});
