import { createPublicKey } from 'node:crypto';
import { DecryptCommand, GetPublicKeyCommand, type KMSClient } from '@aws-sdk/client-kms';
import { calculateJwkThumbprint } from 'jose';
import type { ContentKeyUnwrapper, KeyWrapAlgorithm } from '../checkout/jwe.js';
import { CheckoutDecryptionFailedError, DependencyUnavailableError, InternalError } from '../errors.js';
import { recordDependencyFailure } from '../metrics/dependency-failures.js';


export interface PayloadPublicKey {
  kid: string;
  kmsKeyArn: string;
  status: 'current' | 'previous';
  jwk: { kty: 'RSA'; kid: string; use: 'enc'; alg: 'RSA-OAEP-256'; n: string; e: string };
}

const KMS_ALGORITHM: Record<KeyWrapAlgorithm, 'RSAES_OAEP_SHA_1' | 'RSAES_OAEP_SHA_256'> = {
  'RSA-OAEP': 'RSAES_OAEP_SHA_1',
  'RSA-OAEP-256': 'RSAES_OAEP_SHA_256',
};

/**
 * Decrypt answers caused by the ciphertext we were sent, not by KMS being down: 422. Real
 * KMS says `ValidationException` for a blob it cannot even parse (the emulator may say
 * `InvalidCiphertextException`); neither is retryable.
 */
const BAD_INPUT = new Set([
  'ValidationException',
  'InvalidCiphertextException',
  'IncorrectKeyException',
  'InvalidKeyUsageException',
]);
/** Our own configuration is wrong (key id, key state, IAM): 500, a retry will not help. */
const MISCONFIGURED = new Set(['NotFoundException', 'DisabledException', 'KMSInvalidStateException', 'AccessDeniedException']);
/** GetPublicKey takes only our configured key id: a ValidationException there is ours too. */
const MISCONFIGURED_LOAD = new Set([...MISCONFIGURED, 'ValidationException']);

/**
 * The service's checkout-payload keys. Public halves come from KMS GetPublicKey once per
 * cold start; `kid` is the RFC 7638 thumbprint, so it is stable and needs no registry.
 * Private halves never leave KMS: `unwrap` sends only the JWE's encrypted CEK to Decrypt.
 */
export class PayloadKeyVault implements ContentKeyUnwrapper {
  private keys: Promise<PayloadPublicKey[]> | undefined;

  constructor(
    private readonly kms: KMSClient,
    private readonly keyIds: readonly string[],
  ) {
    if (keyIds.length === 0) throw new Error('at least one payload key id is required');
  }

  publicKeys(): Promise<PayloadPublicKey[]> {
    this.keys ??= this.load().catch((error: unknown) => {
      this.keys = undefined; // do not cache a failure: the next invocation tries again
      throw error;
    });
    return this.keys;
  }

  async currentKid(): Promise<string> {
    return (await this.publicKeys())[0]!.kid;
  }

  /**
   * ContentKeyUnwrapper port of the JWE code. Unknown kid and bad ciphertext look the same.
   * An RSA-OAEP ciphertext is exactly as long as the key's modulus (RFC 8017 §7.1.2), so any
   * other length is refused here: it never costs a KMS call, and real KMS would answer it
   * with a ValidationException rather than a decryption failure.
   */
  async unwrap(kid: string, alg: KeyWrapAlgorithm, encryptedKey: Uint8Array): Promise<Uint8Array> {
    const key = (await this.publicKeys()).find((candidate) => candidate.kid === kid);
    if (!key) throw new CheckoutDecryptionFailedError(undefined, { cause: new Error('unknown recipient kid') });
    if (encryptedKey.length !== modulusLength(key)) {
      throw new CheckoutDecryptionFailedError(undefined, { cause: new Error('encrypted key length is not the modulus length') });
    }
    try {
      const { Plaintext } = await this.kms.send(
        new DecryptCommand({ KeyId: key.kmsKeyArn, CiphertextBlob: encryptedKey, EncryptionAlgorithm: KMS_ALGORITHM[alg] }),
      );
      if (!Plaintext) throw new Error('KMS returned no plaintext');
      return Plaintext;
    } catch (error) {
      throw mapKmsError(error, BAD_INPUT, MISCONFIGURED);
    }
  }

  private async load(): Promise<PayloadPublicKey[]> {
    return Promise.all(
      this.keyIds.map(async (keyId, index) => {
        let response;
        try {
          response = await this.kms.send(new GetPublicKeyCommand({ KeyId: keyId }));
        } catch (error) {
          throw mapKmsError(error, new Set(), MISCONFIGURED_LOAD);
        }
        if (!response.PublicKey || !response.KeyId || response.KeyUsage !== 'ENCRYPT_DECRYPT' || !response.KeySpec?.startsWith('RSA_')) {
          throw new InternalError(undefined, { cause: new Error(`payload key ${index} is not an RSA ENCRYPT_DECRYPT key`) });
        }
        const exported = createPublicKey({ key: Buffer.from(response.PublicKey), format: 'der', type: 'spki' }).export({ format: 'jwk' });
        const n = exported.n!;
        const e = exported.e!;
        const kid = await calculateJwkThumbprint({ kty: 'RSA', n, e }, 'sha256');
        return {
          kid,
          kmsKeyArn: response.KeyId,
          status: index === 0 ? 'current' : 'previous',
          jwk: { kty: 'RSA', kid, use: 'enc', alg: 'RSA-OAEP-256', n, e },
        } satisfies PayloadPublicKey;
      }),
    );
  }
}

/** Bytes of the RSA modulus: the JWK `n` is unsigned big-endian without leading zeros. */
const modulusLength = (key: PayloadPublicKey) => Buffer.from(key.jwk.n, 'base64url').length;

/**
 * Input errors → 422, our misconfiguration → 500, everything else (network, timeout,
 * throttling, KMS 5xx) → 503 with Retry-After.
 */
function mapKmsError(error: unknown, badInput: ReadonlySet<string>, misconfigured: ReadonlySet<string>): Error {
  if (error instanceof CheckoutDecryptionFailedError || error instanceof InternalError) return error;
  const name = (error as { name?: string }).name ?? '';
  if (badInput.has(name)) return new CheckoutDecryptionFailedError(undefined, { cause: error });
  if (misconfigured.has(name)) return new InternalError(undefined, { cause: error });
  recordDependencyFailure('kms', error);
  return new DependencyUnavailableError(undefined, { cause: error });
}
