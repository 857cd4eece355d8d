/**
 * ECDSA signature malleability (SPEC §4.3 step 2): for a valid ES256 signature (r, s), the
 * pair (r, n − s) verifies too, so anyone holding a signed checkout response could mint a
 * byte-different twin without the network's key. Only the low-S form (s ≤ n/2) is accepted;
 * signers we run ourselves (the sandbox network) normalise to it.
 */

/** The order n of the P-256 group (FIPS 186-4 D.1.2.3). */
const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const HALF_ORDER = P256_ORDER >> 1n;
/** A JWS ES256 signature is the raw r ‖ s, 32 bytes each (RFC 7518 §3.4). */
const ES256_SIGNATURE_LENGTH = 64;
const SCALAR_LENGTH = 32;

/** True when `signature` is a 64-byte r ‖ s whose s is in the lower half of the group. */
export function isLowS(signature: Uint8Array): boolean {
  if (signature.length !== ES256_SIGNATURE_LENGTH) return false;
  return toBigInt(signature.subarray(SCALAR_LENGTH)) <= HALF_ORDER;
}

/** The low-S form of an ES256 signature (unchanged when it already is one). */
export function toLowS(signature: Uint8Array): Uint8Array {
  if (signature.length !== ES256_SIGNATURE_LENGTH) throw new Error('not an ES256 signature');
  if (isLowS(signature)) return signature;
  const s = P256_ORDER - toBigInt(signature.subarray(SCALAR_LENGTH));
  const out = new Uint8Array(ES256_SIGNATURE_LENGTH);
  out.set(signature.subarray(0, SCALAR_LENGTH), 0);
  out.set(Buffer.from(s.toString(16).padStart(SCALAR_LENGTH * 2, '0'), 'hex'), SCALAR_LENGTH);
  return out;
}

/** A compact ES256 JWS with its signature in low-S form (for signers we run ourselves). */
export function withLowS(compactJws: string): string {
  const [header, payload, signature = ''] = compactJws.split('.');
  const lowS = toLowS(Buffer.from(signature, 'base64url'));
  return `${header}.${payload}.${Buffer.from(lowS).toString('base64url')}`;
}

const toBigInt = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
