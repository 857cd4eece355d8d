import { CreateKeyCommand } from '@aws-sdk/client-kms';
import { CompactEncrypt, importJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { kmsClient } from '../../lib/composition/aws.js';
import { decryptCheckoutJwe } from '../../lib/core/checkout/jwe.js';
import { PayloadKeyVault } from '../../lib/adapters/kms/payload-key-vault.js';
import { CheckoutDecryptionFailedError } from '../../lib/core/errors.js';

/** SPEC 4.2 rotation: a new key becomes current, the old one stays listed (and usable) as previous. */
async function encryptTo(jwk: { kid: string }, text: string, alg: 'RSA-OAEP-256' | 'RSA-OAEP' = 'RSA-OAEP-256') {
  return new CompactEncrypt(new TextEncoder().encode(text))
    .setProtectedHeader({ alg, enc: 'A128GCM', kid: jwk.kid })
    .encrypt(await importJWK(jwk as never, alg));
}

describe('payload key rotation', () => {
  it('serves current then previous, and decrypts payloads made for either through KMS', async () => {
    const { KeyMetadata } = await kmsClient.send(new CreateKeyCommand({ KeySpec: 'RSA_3072', KeyUsage: 'ENCRYPT_DECRYPT' }));
    const oldAlias = process.env.PAYLOAD_KEY_IDS!;
    const vault = new PayloadKeyVault(kmsClient, [KeyMetadata!.Arn!, oldAlias]);
    const [current, previous] = await vault.publicKeys();
    expect(current!.status).toBe('current');
    expect(previous!.status).toBe('previous');
    expect(current!.kid).not.toBe(previous!.kid);
    expect(await vault.currentKid()).toBe(current!.kid);

    for (const key of [current!, previous!]) {
      for (const alg of ['RSA-OAEP-256', 'RSA-OAEP'] as const) {
        const jwe = await encryptTo(key.jwk, `hello ${key.status} ${alg}`, alg);
        expect(Buffer.from(await decryptCheckoutJwe(jwe, vault)).toString()).toBe(`hello ${key.status} ${alg}`);
      }
    }
  });

  it('once the old key is dropped from the list, its payloads fail like any undecryptable payload', async () => {
    const { KeyMetadata } = await kmsClient.send(new CreateKeyCommand({ KeySpec: 'RSA_2048', KeyUsage: 'ENCRYPT_DECRYPT' }));
    const before = new PayloadKeyVault(kmsClient, [process.env.PAYLOAD_KEY_IDS!]);
    const jwe = await encryptTo((await before.publicKeys())[0]!.jwk, 'old');
    const after = new PayloadKeyVault(kmsClient, [KeyMetadata!.KeyId!]);
    await expect(decryptCheckoutJwe(jwe, after)).rejects.toBeInstanceOf(CheckoutDecryptionFailedError);
  });

  it('refuses a KMS key that is not an RSA decryption key at load', async () => {
    const vault = new PayloadKeyVault(kmsClient, ['alias/does-not-exist']);
    await expect(vault.publicKeys()).rejects.toThrow();
  });
});
