import { DecryptCommand, EncryptCommand, type KMSClient } from '@aws-sdk/client-kms';
import { DependencyUnavailableError, InternalError } from '../../core/errors.js';
import { recordDependencyFailure } from '../metrics/dependency-failures.js';

/**
 * Webhook signing secrets (SPEC 4.15; made by signing.ts `newSigningSecret`). A secret is shown
 * to the merchant once and otherwise exists only sealed by a symmetric KMS key: never in
 * DynamoDB, never in a log. A sealer seals one for storage and opens it again, both bound to
 * the merchant it belongs to.
 */
export interface SecretSealer {
  seal(secret: string, merchantRef: string): Promise<string>;
  open(sealed: string, merchantRef: string): Promise<string>;
}

/**
 * KMS encryption context: authenticated with the ciphertext, so a sealed secret copied onto
 * another merchant's record does not open, and IAM can restrict the key to this purpose
 * (`kms:EncryptionContext:purpose`). Not secret: it appears in CloudTrail.
 */
export const WEBHOOK_SECRET_PURPOSE = 'webhook-signing-secret';
export const webhookSecretContext = (merchantRef: string) => ({ purpose: WEBHOOK_SECRET_PURPOSE, merchantRef });

/** Our configuration is wrong (key id, key state or type, IAM): 500, a retry will not help. */
const MISCONFIGURED = new Set([
  'NotFoundException',
  'DisabledException',
  'KMSInvalidStateException',
  'AccessDeniedException',
  'InvalidKeyUsageException',
  'ValidationException',
]);
/** The stored blob does not open with this key and merchant: corrupt or misplaced data, 500. */
const BAD_STORED_DATA = new Set(['InvalidCiphertextException', 'IncorrectKeyException']);

/** Everything else (network, timeout, throttling, KMS 5xx) is a 503 with Retry-After. */
function mapKmsError(error: unknown): Error {
  const name = (error as { name?: string }).name ?? '';
  if (MISCONFIGURED.has(name) || BAD_STORED_DATA.has(name)) return new InternalError(undefined, { cause: error });
  recordDependencyFailure('kms', error);
  return new DependencyUnavailableError(undefined, { cause: error });
}

/**
 * The KMS adapter. Decrypt names the configured key as well (AWS's advice: only that key may
 * open our blobs), so rotate the key with KMS automatic rotation, which keeps its id.
 */
export class KmsSecretSealer implements SecretSealer {
  constructor(
    private readonly kms: KMSClient,
    private readonly keyId: string,
  ) {}

  async seal(secret: string, merchantRef: string): Promise<string> {
    const { CiphertextBlob } = await this.kms
      .send(new EncryptCommand({ KeyId: this.keyId, Plaintext: Buffer.from(secret, 'utf8'), EncryptionContext: webhookSecretContext(merchantRef) }))
      .catch((error: unknown) => Promise.reject(mapKmsError(error)));
    // An answer without the blob is no outage: nothing to retry, a 500.
    if (!CiphertextBlob) throw new InternalError(undefined, { cause: new Error('KMS returned no ciphertext') });
    return Buffer.from(CiphertextBlob).toString('base64');
  }

  async open(sealed: string, merchantRef: string): Promise<string> {
    const { Plaintext } = await this.kms
      .send(new DecryptCommand({ KeyId: this.keyId, CiphertextBlob: Buffer.from(sealed, 'base64'), EncryptionContext: webhookSecretContext(merchantRef) }))
      .catch((error: unknown) => Promise.reject(mapKmsError(error)));
    if (!Plaintext) throw new InternalError(undefined, { cause: new Error('KMS returned no plaintext') });
    return Buffer.from(Plaintext).toString('utf8');
  }
}
