import { CompactEncrypt, importJWK } from 'jose';
import type { PayloadKeyVault } from '../keys/payload-key-vault.js';

/**
 * Encrypts data to the service's current payload key, exactly as a network would (JWE,
 * RSA-OAEP-256 + A256GCM, kid = thumbprint). Used to keep Direct Wallet data across a 3DS
 * challenge: only KMS can open it again, so nothing readable is stored.
 */
export async function sealToPayloadKey(keys: PayloadKeyVault, data: unknown): Promise<string> {
  const [current] = await keys.publicKeys();
  const publicKey = await importJWK(current!.jwk, 'RSA-OAEP-256');
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(data)))
    .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: current!.kid, cty: 'application/json' })
    .encrypt(publicKey);
}
