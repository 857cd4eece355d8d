import type { ContentKeyUnwrapper } from '../checkout/jwe.js';

export interface PayloadPublicKey {
  kid: string;
  kmsKeyArn: string;
  /** The entry of PAYLOAD_KEY_IDS this key came from (what an operator registers kids under). */
  configuredId: string;
  status: 'current' | 'previous';
  /** Key ids the card networks assigned to this key (PAYLOAD_KEY_NETWORK_KIDS). */
  networkKids: readonly string[];
  jwk: { kty: 'RSA'; kid: string; use: 'enc'; alg: 'RSA-OAEP-256'; n: string; e: string };
}

/**
 * The service's payload-encryption keys (SPEC 4.2, 4.3 step 5): their public halves, current
 * first, and the unwrapping of a JWE's content key. The private keys never leave the vault
 * (KMS in production): only the wrapped CEK goes in.
 */
export interface KeyVault extends ContentKeyUnwrapper {
  publicKeys(): Promise<PayloadPublicKey[]>;
  currentKid(): Promise<string>;
}
