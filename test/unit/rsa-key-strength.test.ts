import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hasRocaFingerprint, ROCA_TEST_PRIMES } from '../../lib/adapters/jwks/roca-fingerprint.js';
import { weakRsaKeyReason } from '../../lib/adapters/jwks/rsa-key-strength.js';
import { modInverse, RSALIB_PRIMORIAL, rsalibKeyPair, toBase64url } from '../support/rsalib-key.js';

/**
 * SPEC §4.3 step 2 (lib/adapters/jwks/rsa-key-strength.ts, roca-fingerprint.ts): which RSA keys are
 * never trusted. The ROCA test is the published detector's (crocs-muni/roca): the modulus
 * modulo each prime 3…167 must be a power of 65537.
 */
const modulusOf = (n: string) => BigInt(`0x${Buffer.from(n, 'base64url').toString('hex')}`);
const generated = new Map<number, ReturnType<typeof generate>>();
const generate = (bits: number) => generateKeyPairSync('rsa', { modulusLength: bits }).publicKey.export({ format: 'jwk' });
/** One ordinary key per size, generated once for the file (3072 and 4096 bits are slow). */
const ordinary = (bits: number) => generated.get(bits) ?? generated.set(bits, generate(bits)).get(bits)!;

describe('ROCA fingerprint', () => {
  const rsalib = [rsalibKeyPair(), rsalibKeyPair()];

  it('tests the 38 odd primes 3…167, as the published detector does', () => {
    expect(ROCA_TEST_PRIMES).toHaveLength(38);
    expect(ROCA_TEST_PRIMES).toEqual([
      3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 101, 103, 107, 109, 113, 127, 131, 137, 139, 149, 151, 157,
      163, 167,
    ]);
  });

  it('flags RSALib-shaped moduli (p = k·M + 65537^a mod M)', () => {
    for (const { modulus } of rsalib) expect(hasRocaFingerprint(modulus)).toBe(true);
  });

  it('does not flag ordinary keys', () => {
    const keys = [generate(2048), generate(2048), generate(2048), ordinary(2048), ordinary(3072), ordinary(4096)];
    for (const { n } of keys) expect(hasRocaFingerprint(modulusOf(n!))).toBe(false);
  });

  it('every one of the 38 primes counts: moving one residue out of the subgroup clears the fingerprint', () => {
    const n = rsalib[0]!.modulus;
    for (const r of ROCA_TEST_PRIMES.map(BigInt)) {
      // n + t·(M/r) keeps n's residue modulo every other prime of M and makes it 0 modulo r,
      // which no power of 65537 is.
      const cofactor = RSALIB_PRIMORIAL / r;
      const t = ((r - (n % r)) * modInverse(cofactor % r, r)) % r;
      const moved = n + t * cofactor;
      expect(moved % r).toBe(0n);
      expect(hasRocaFingerprint(moved), `prime ${r}`).toBe(false);
    }
  });
});

describe('weakRsaKeyReason', () => {
  it('trusts 65537 with 2048, 3072 and 4096 bits, also an exponent written with a leading zero byte', () => {
    for (const bits of [2048, 3072, 4096]) expect(weakRsaKeyReason(ordinary(bits))).toBeUndefined();
    expect(weakRsaKeyReason({ ...ordinary(2048), e: 'AAEAAQ' })).toBeUndefined();
  });

  it('refuses any other public exponent', () => {
    const { n } = ordinary(2048);
    for (const e of [1n, 3n, 17n, 65535n, 65539n, 2n ** 32n + 1n]) {
      expect(weakRsaKeyReason({ n, e: toBase64url(e) })).toBe('public exponent is not 65537');
    }
  });

  it('refuses a modulus under 2048 bits, counting bits, not bytes', () => {
    expect(weakRsaKeyReason(ordinary(1024))).toBe('modulus is 1024 bits, under 2048');
    const n2047 = toBase64url(modulusOf(ordinary(2048).n!) >> 1n);
    expect(Buffer.from(n2047, 'base64url')).toHaveLength(256); // 256 bytes, but 2047 bits
    expect(weakRsaKeyReason({ n: n2047, e: 'AQAB' })).toBe('modulus is 2047 bits, under 2048');
    expect(weakRsaKeyReason({ n: `AAAA${ordinary(1024).n!}`, e: 'AQAB' })).toMatch(/1024 bits/); // leading zeros do not count
  });

  it('refuses the ROCA fingerprint at 2048 bits and e = 65537', () => {
    expect(weakRsaKeyReason(rsalibKeyPair().publicJwk)).toBe('modulus carries the ROCA fingerprint (CVE-2017-15361)');
  });

  it('refuses n or e that is missing, not a string, empty or not base64url', () => {
    const { n } = ordinary(2048);
    for (const jwk of [{ n }, { e: 'AQAB' }, { n, e: 65537 }, { n: '', e: 'AQAB' }, { n: `${n}=`, e: 'AQAB' }, { n: `/${n!.slice(1)}`, e: 'AQAB' }]) {
      expect(weakRsaKeyReason(jwk)).toBe('n or e is not a base64url integer');
    }
  });
});
