import { createPublicKey } from 'node:crypto';
import { DecryptCommand, GetPublicKeyCommand, type KMSClient } from '@aws-sdk/client-kms';
import { calculateJwkThumbprint } from 'jose';
import type { ContentKeyUnwrapper, KeyWrapAlgorithm } from '../checkout/jwe.js';
import { CheckoutDecryptionFailedError, DependencyUnavailableError, InternalError } from '../errors.js';


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

/** KMS answers that mean "this ciphertext/key pairing is wrong", not "KMS is down". */
const BAD_INPUT = new Set(['InvalidCiphertextException', 'IncorrectKeyException', 'InvalidKeyUsageException']);
const MISCONFIGURED = new Set(['NotFoundException', 'DisabledException', 'KMSInvalidStateException', 'AccessDeniedException']);

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

  /** ContentKeyUnwrapper port of the JWE code. Unknown kid and bad ciphertext look the same. */
  async unwrap(kid: string, alg: KeyWrapAlgorithm, encryptedKey: Uint8Array): Promise<Uint8Array> {
    const key = (await this.publicKeys()).find((candidate) => candidate.kid === kid);
    if (!key) throw new CheckoutDecryptionFailedError(undefined, { cause: new Error('unknown recipient kid') });
    try {
      const { Plaintext } = await this.kms.send(
        new DecryptCommand({ KeyId: key.kmsKeyArn, CiphertextBlob: encryptedKey, EncryptionAlgorithm: KMS_ALGORITHM[alg] }),
      );
      if (!Plaintext) throw new Error('KMS returned no plaintext');
      return Plaintext;
    } catch (error) {
      throw mapKmsError(error);
    }
  }

  private async load(): Promise<PayloadPublicKey[]> {
    return Promise.all(
      this.keyIds.map(async (keyId, index) => {
        let response;
        try {
          response = await this.kms.send(new GetPublicKeyCommand({ KeyId: keyId }));
        } catch (error) {
          throw mapKmsError(error);
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

function mapKmsError(error: unknown): Error {
  if (error instanceof CheckoutDecryptionFailedError || error instanceof InternalError) return error;
  const name = (error as { name?: string }).name ?? '';
  if (BAD_INPUT.has(name)) return new CheckoutDecryptionFailedError(undefined, { cause: error });
  if (MISCONFIGURED.has(name)) return new InternalError(undefined, { cause: error });
  return new DependencyUnavailableError(undefined, { cause: error });
}
