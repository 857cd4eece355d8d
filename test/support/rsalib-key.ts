/**
 * RSA keys with the ROCA fingerprint (CVE-2017-15361), made here rather than copied from a
 * published vector: each prime has the shape Infineon's RSALib gave its primes,
 * p = k·M + (65537^a mod M), with M the product of the primes up to 167 (RSALib used a
 * larger primorial; the fingerprint only looks at these). Then n = p·q is, modulo each of
 * those primes, a power of 65537 — the fingerprint — while the key is otherwise an ordinary,
 * working 2048-bit RSA key with e = 65537 (it signs and verifies).
 */
import { checkPrimeSync, createPrivateKey, randomBytes, type KeyObject } from 'node:crypto';
import type { JWK } from 'jose';

const E = 65537n;
const SMALL_PRIMES = Array.from({ length: 166 }, (_, i) => i + 2).filter((c) => Array.from({ length: c - 2 }, (_, i) => i + 2).every((d) => c % d !== 0));
export const RSALIB_PRIMORIAL = SMALL_PRIMES.reduce((product, r) => product * BigInt(r), 1n);

const randomBigInt = (bits: number) => BigInt(`0x${randomBytes(Math.ceil(bits / 8)).toString('hex')}`) & ((1n << BigInt(bits)) - 1n);

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  for (let x = exponent; x > 0n; x >>= 1n) {
    if (x & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
  }
  return result;
}

export function modInverse(a: bigint, m: bigint): bigint {
  let [oldR, r] = [((a % m) + m) % m, m];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  if (oldR !== 1n) throw new Error('not invertible');
  return ((oldS % m) + m) % m;
}

/** A 1024-bit prime of RSALib's shape, usable with e = 65537. */
function rsalibPrime(): bigint {
  const bits = 1024n;
  const low = (1n << (bits - 1n)) + (1n << (bits - 2n)); // top two bits set: p·q has 2048 bits
  for (;;) {
    const offset = modPow(E, randomBigInt(64), RSALIB_PRIMORIAL);
    const k = low / RSALIB_PRIMORIAL + randomBigInt(Number(bits) - RSALIB_PRIMORIAL.toString(2).length - 2);
    const p = k * RSALIB_PRIMORIAL + offset;
    if (p.toString(2).length !== Number(bits) || (p - 1n) % E === 0n) continue;
    if (checkPrimeSync(p)) return p;
  }
}

export const toBase64url = (value: bigint) => {
  const hex = value.toString(16);
  return Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex').toString('base64url');
};

/** A 2048-bit RSA key pair whose modulus carries the ROCA fingerprint. */
export function rsalibKeyPair(): { privateKey: KeyObject; publicJwk: JWK; modulus: bigint } {
  const p = rsalibPrime();
  let q = rsalibPrime();
  while (q === p) q = rsalibPrime();
  const n = p * q;
  const d = modInverse(E, (p - 1n) * (q - 1n));
  const jwk = {
    kty: 'RSA',
    n: toBase64url(n),
    e: toBase64url(E),
    d: toBase64url(d),
    p: toBase64url(p),
    q: toBase64url(q),
    dp: toBase64url(d % (p - 1n)),
    dq: toBase64url(d % (q - 1n)),
    qi: toBase64url(modInverse(q, p)),
  };
  const privateKey = createPrivateKey({ key: jwk, format: 'jwk' });
  return { privateKey, publicJwk: { kty: 'RSA', n: jwk.n, e: jwk.e }, modulus: n };
}
