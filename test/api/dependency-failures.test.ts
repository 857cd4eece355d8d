import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { describe, expect, it } from 'vitest';
import { DependencyUnavailableError, InternalError, CheckoutDecryptionFailedError } from '../../lib/core/errors.js';
import { ConfigRepository } from '../../lib/adapters/dynamodb/config-repository.js';
import { PayloadKeyVault } from '../../lib/adapters/kms/payload-key-vault.js';
import { payloadKeyVault } from '../../lib/composition/keys.js';
import { kmsClient } from '../../lib/composition/aws.js';
import { errorHeaders } from '../../lib/http/error-status.js';

/** SPEC §2: DynamoDB or KMS unavailable → 503 (retryable); our own misconfiguration → 500. */
const unreachable = { endpoint: 'http://127.0.0.1:9', region: 'us-east-1', maxAttempts: 1, credentials: { accessKeyId: 'x', secretAccessKey: 'x' } };

describe('dependency failures', () => {
  it('DynamoDB unreachable → DependencyUnavailableError with Retry-After', async () => {
    const repository = new ConfigRepository(DynamoDBDocumentClient.from(new DynamoDBClient(unreachable)), 'any');
    const error = await repository.getPlatformMethods().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyUnavailableError);
    expect(errorHeaders(error as DependencyUnavailableError)['Retry-After']).toBe('1');
  });

  it('a missing table is a misconfiguration: 500, not a retry hint', async () => {
    const { documentClient } = await import('../../lib/composition/aws.js');
    const repository = new ConfigRepository(documentClient, 'no-such-table');
    await expect(repository.getPlatformMethods()).rejects.toBeInstanceOf(InternalError);
  });

  it('KMS unreachable → DependencyUnavailableError, never a 422', async () => {
    const vault = new PayloadKeyVault(new KMSClient(unreachable), ['alias/x']);
    await expect(vault.publicKeys()).rejects.toBeInstanceOf(DependencyUnavailableError);
  });

  it('KMS refusing the ciphertext → CheckoutDecryptionFailedError (422)', async () => {
    const kid = await payloadKeyVault.currentKid();
    const vault = new PayloadKeyVault(kmsClient, [process.env.PAYLOAD_KEY_IDS!]);
    await expect(vault.unwrap(kid, 'RSA-OAEP-256', new Uint8Array(256))).rejects.toBeInstanceOf(CheckoutDecryptionFailedError);
    await expect(vault.unwrap('unknown-kid', 'RSA-OAEP-256', new Uint8Array(256))).rejects.toBeInstanceOf(CheckoutDecryptionFailedError);
  });
});
