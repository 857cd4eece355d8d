/**
 * A `ContentKeyUnwrapper` over local RSA private keys, for tests and local development.
 * Production unwraps through KMS `Decrypt`, so the private key never leaves KMS.
 */
import { constants, privateDecrypt, type KeyObject } from 'node:crypto';
import type { ContentKeyUnwrapper, KeyWrapAlgorithm } from '../../lib/core/checkout/jwe.js';

/** RSA-OAEP (RFC 7518 §4.3) uses SHA-1 for both the hash and MGF1; RSA-OAEP-256 uses SHA-256. */
const OAEP_HASH: Record<KeyWrapAlgorithm, string> = { 'RSA-OAEP': 'sha1', 'RSA-OAEP-256': 'sha256' };

/**
 * Mirrors the KMS vault's recipient selection (SPEC §4.3 step 5): the key named by `kid`,
 * else — an unknown or absent `kid` — each key in turn until one unwraps.
 */
export function localUnwrapper(privateKeysByKid: Map<string, KeyObject>): ContentKeyUnwrapper {
  return {
    async unwrap(kid, alg, encryptedKey) {
      const oaepHash = OAEP_HASH[alg];
      if (!oaepHash) throw new Error('unsupported key wrap algorithm');
      // Node applies `oaepHash` to MGF1 as well, matching both JWA definitions.
      const decrypt = (key: KeyObject) => new Uint8Array(privateDecrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash }, encryptedKey));
      const named = kid === undefined ? undefined : privateKeysByKid.get(kid);
      if (named) return decrypt(named);
      for (const key of privateKeysByKid.values()) {
        try {
          return decrypt(key);
        } catch {
          // not this key's: try the next
        }
      }
      throw new Error('no recipient key decrypts the JWE');
    },
  };
}
