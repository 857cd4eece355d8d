import { KMSClient } from '@aws-sdk/client-kms';
import { describe, expect, it, vi } from 'vitest';
import { PayloadKeyVault } from '../../lib/adapters/kms/payload-key-vault.js';

/** SPEC 4.2: the Lambda caches public keys across invocations; a failed load is not cached. */
describe('payload public key cache', () => {
  it('asks KMS once per cold start, however many invocations follow', async () => {
    const kms = new KMSClient({ endpoint: process.env.KMS_ENDPOINT, region: 'us-east-1' });
    const send = vi.spyOn(kms, 'send');
    const vault = new PayloadKeyVault(kms, [process.env.PAYLOAD_KEY_IDS!]);
    await Promise.all([vault.publicKeys(), vault.publicKeys(), vault.currentKid()]);
    await vault.publicKeys();
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('does not cache a failure: the next invocation tries again', async () => {
    const kms = new KMSClient({ endpoint: process.env.KMS_ENDPOINT, region: 'us-east-1' });
    const send = vi.spyOn(kms, 'send').mockRejectedValueOnce(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
    const vault = new PayloadKeyVault(kms, [process.env.PAYLOAD_KEY_IDS!]);
    await expect(vault.publicKeys()).rejects.toThrow();
    expect((await vault.publicKeys()).length).toBe(1);
    expect(send).toHaveBeenCalledTimes(2);
  });
});
