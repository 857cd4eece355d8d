import { CheckoutDecryptionFailedError, DependencyUnavailableError, InternalError } from '../../core/errors.js';
import { recordDependencyFailure } from '../metrics/dependency-failures.js';

/**
 * Decrypt answers caused by the ciphertext we were sent, not by KMS being down: 422. Real
 * KMS says `ValidationException` for a blob it cannot even parse and
 * `InvalidCiphertextException` for an RSA-OAEP blob the key does not open (also what a
 * wrong key gives); none is retryable. During a key trial (payload-key-vault.ts) exactly
 * these mean "not this key, try the next".
 */
export const BAD_INPUT: ReadonlySet<string> = new Set([
  'ValidationException',
  'InvalidCiphertextException',
  'IncorrectKeyException',
  'InvalidKeyUsageException',
]);
/** Our own configuration is wrong (key id, key state, IAM): 500, a retry will not help. */
export const MISCONFIGURED: ReadonlySet<string> = new Set(['NotFoundException', 'DisabledException', 'KMSInvalidStateException', 'AccessDeniedException']);
/** GetPublicKey takes only our configured key id: a ValidationException there is ours too. */
export const MISCONFIGURED_LOAD: ReadonlySet<string> = new Set([...MISCONFIGURED, 'ValidationException']);

/** True when KMS refused the ciphertext itself (wrong key, corrupt blob), not when it is down. */
export const isBadCiphertext = (error: unknown) => BAD_INPUT.has((error as { name?: string } | null)?.name ?? '');

/**
 * Input errors → 422, our misconfiguration → 500, everything else (network, timeout,
 * throttling, KMS 5xx) → 503 with Retry-After.
 */
export function mapKmsError(error: unknown, badInput: ReadonlySet<string>, misconfigured: ReadonlySet<string>): Error {
  if (error instanceof CheckoutDecryptionFailedError || error instanceof InternalError) return error;
  const name = (error as { name?: string }).name ?? '';
  if (badInput.has(name)) return new CheckoutDecryptionFailedError(undefined, { cause: error });
  if (misconfigured.has(name)) return new InternalError(undefined, { cause: error });
  recordDependencyFailure('kms', error);
  return new DependencyUnavailableError(undefined, { cause: error });
}
