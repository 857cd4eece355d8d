/**
 * Which public RSA keys are never trusted (SPEC §4.3 step 2): a public exponent other than
 * 65537, a modulus under 2048 bits, or the ROCA fingerprint. jose refuses short keys only when
 * a signature is checked and accepts any exponent, including 1 (with e = 1 the "signature" is
 * the encoded message itself: anyone can make one) and 3; an RSALib key's factors can be
 * recovered from its public half. Such a key is dropped when its set is loaded, so it never
 * resolves, whatever the token says.
 */
import { hasRocaFingerprint } from './roca-fingerprint.js';

export const MIN_RSA_MODULUS_BITS = 2048;
export const RSA_PUBLIC_EXPONENT = 65537n;

/** Base64url digits only, so this reads the same integer Node's JWK import reads. */
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Why this public RSA JWK must not be trusted, or undefined when it may be. */
export function weakRsaKeyReason(jwk: { n?: unknown; e?: unknown }): string | undefined {
  const n = unsignedInteger(jwk.n);
  const e = unsignedInteger(jwk.e);
  if (n === undefined || e === undefined) return 'n or e is not a base64url integer';
  if (e !== RSA_PUBLIC_EXPONENT) return 'public exponent is not 65537';
  const bits = n.toString(2).length;
  if (bits < MIN_RSA_MODULUS_BITS) return `modulus is ${bits} bits, under ${MIN_RSA_MODULUS_BITS}`;
  if (hasRocaFingerprint(n)) return 'modulus carries the ROCA fingerprint (CVE-2017-15361)';
  return undefined;
}

function unsignedInteger(value: unknown): bigint | undefined {
  if (typeof value !== 'string' || !BASE64URL.test(value)) return undefined;
  const hex = Buffer.from(value, 'base64url').toString('hex');
  return hex.length === 0 ? undefined : BigInt(`0x${hex}`);
}
