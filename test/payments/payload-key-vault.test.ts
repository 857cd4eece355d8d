import { generateKeyPairSync } from 'node:crypto';
import { DecryptCommand, GetPublicKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { CompactEncrypt, importJWK } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { decryptCheckoutJwe } from '../../lib/core/checkout/jwe.js';
import { CheckoutDecryptionFailedError, DependencyUnavailableError, InternalError } from '../../lib/core/errors.js';
import { PayloadKeyVault } from '../../lib/adapters/kms/payload-key-vault.js';

/**
 * SPEC §4.3 step 5 / issue 7 item 6: an RSA-OAEP encrypted CEK is exactly the modulus length,
 * so any other length is refused (422) before KMS is asked; KMS errors caused by the input
 * are 422, only an unavailable KMS is 503.
 */
const decryptCalls = (send: { mock: { calls: unknown[][] } }) => send.mock.calls.filter(([command]) => command instanceof DecryptCommand).length;

function localVault() {
  const kms = new KMSClient({ endpoint: process.env.KMS_ENDPOINT, region: 'us-east-1' });
  const send = vi.spyOn(kms, 'send');
  return { vault: new PayloadKeyVault(kms, [process.env.PAYLOAD_KEY_IDS!]), send };
}

async function jweFor(vault: PayloadKeyVault): Promise<string> {
  const [current] = await vault.publicKeys();
  const key = await importJWK(current!.jwk, 'RSA-OAEP-256');
  return new CompactEncrypt(new TextEncoder().encode('{"ok":true}'))
    .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: current!.kid })
    .encrypt(key);
}

const withEncryptedKey = (jwe: string, encryptedKey: Uint8Array) => {
  const segments = jwe.split('.');
  segments[1] = Buffer.from(encryptedKey).toString('base64url');
  return segments.join('.');
};

describe('PayloadKeyVault against the local KMS server', () => {
  it('decrypts a well-formed JWE with one Decrypt call (baseline)', async () => {
    const { vault, send } = localVault();
    const jwe = await jweFor(vault);
    expect(new TextDecoder().decode(await decryptCheckoutJwe(jwe, vault))).toBe('{"ok":true}');
    expect(decryptCalls(send)).toBe(1);
  });

  it('an oversize or undersize encrypted CEK is 422 without any KMS call', async () => {
    const { vault, send } = localVault();
    const jwe = await jweFor(vault);
    const modulus = Buffer.from(jwe.split('.')[1]!, 'base64url').length;
    expect(modulus).toBe(Buffer.from((await vault.publicKeys())[0]!.jwk.n, 'base64url').length);
    const kid = await vault.currentKid();
    for (const length of [modulus + 1, 4 * modulus, modulus - 1, 1]) {
      const blob = new Uint8Array(length).fill(7);
      await expect(vault.unwrap(kid, 'RSA-OAEP-256', blob)).rejects.toBeInstanceOf(CheckoutDecryptionFailedError);
      const error = await decryptCheckoutJwe(withEncryptedKey(jwe, blob), vault).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CheckoutDecryptionFailedError);
    }
    expect(decryptCalls(send)).toBe(0);
  });

  it('a modulus-length blob KMS cannot decrypt is asked once and is 422', async () => {
    const { vault, send } = localVault();
    const jwe = await jweFor(vault);
    const modulus = Buffer.from(jwe.split('.')[1]!, 'base64url').length;
    const error = await decryptCheckoutJwe(withEncryptedKey(jwe, new Uint8Array(modulus).fill(1)), vault).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckoutDecryptionFailedError);
    expect(decryptCalls(send)).toBe(1);
  });
});

describe('PayloadKeyVault maps KMS errors by cause', () => {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const spki = publicKey.export({ type: 'spki', format: 'der' });

  /** A KMS client that serves one RSA public key and answers Decrypt with `decrypt`. */
  function fakeKms(decrypt: () => Promise<unknown>, getPublicKey?: () => Promise<unknown>) {
    const send = vi.fn(async (command: unknown) => {
      if (command instanceof GetPublicKeyCommand) {
        if (getPublicKey) return getPublicKey();
        return { PublicKey: spki, KeyId: 'arn:aws:kms:eu-west-1:1:key/fake', KeyUsage: 'ENCRYPT_DECRYPT', KeySpec: 'RSA_2048' };
      }
      if (command instanceof DecryptCommand) return decrypt();
      throw new Error('unexpected command');
    });
    return { kms: { send } as unknown as KMSClient, send };
  }
  const kmsError = (name: string, fault: 'client' | 'server' = 'client') => Object.assign(new Error(`KMS said ${name}`), { name, $fault: fault });

  it.each([
    ['ValidationException', CheckoutDecryptionFailedError],
    ['InvalidCiphertextException', CheckoutDecryptionFailedError],
    ['IncorrectKeyException', CheckoutDecryptionFailedError],
    ['InvalidKeyUsageException', CheckoutDecryptionFailedError],
    ['ThrottlingException', DependencyUnavailableError],
    ['KMSInternalException', DependencyUnavailableError],
    ['DependencyTimeoutException', DependencyUnavailableError],
    ['TimeoutError', DependencyUnavailableError],
    ['AbortError', DependencyUnavailableError],
    ['DisabledException', InternalError],
    ['KMSInvalidStateException', InternalError],
    ['AccessDeniedException', InternalError],
  ] as const)('Decrypt %s → %o, and decryptCheckoutJwe keeps that status', async (name, expected) => {
    const { kms } = fakeKms(async () => Promise.reject(kmsError(name)));
    const vault = new PayloadKeyVault(kms, ['alias/fake']);
    const kid = await vault.currentKid();
    await expect(vault.unwrap(kid, 'RSA-OAEP-256', new Uint8Array(256))).rejects.toBeInstanceOf(expected);
    const header = Buffer.from(JSON.stringify({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid })).toString('base64url');
    const jwe = [header, Buffer.alloc(256).toString('base64url'), Buffer.alloc(12).toString('base64url'), 'AA', Buffer.alloc(16).toString('base64url')].join(
      '.',
    );
    await expect(decryptCheckoutJwe(jwe, vault)).rejects.toBeInstanceOf(expected);
  });

  it('a connection failure on Decrypt is 503', async () => {
    const { kms } = fakeKms(async () => Promise.reject(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })));
    const vault = new PayloadKeyVault(kms, ['alias/fake']);
    await expect(vault.unwrap(await vault.currentKid(), 'RSA-OAEP', new Uint8Array(256))).rejects.toBeInstanceOf(DependencyUnavailableError);
  });

  it('GetPublicKey ValidationException is our configuration (500), not the caller’s input', async () => {
    const { kms } = fakeKms(
      async () => ({}),
      async () => Promise.reject(kmsError('ValidationException')),
    );
    await expect(new PayloadKeyVault(kms, ['not a key id']).publicKeys()).rejects.toBeInstanceOf(InternalError);
  });

  it('wrong-length CEKs never reach the fake KMS either', async () => {
    const { kms, send } = fakeKms(async () => ({ Plaintext: new Uint8Array(32) }));
    const vault = new PayloadKeyVault(kms, ['alias/fake']);
    const kid = await vault.currentKid();
    for (const length of [0, 255, 257, 512]) {
      await expect(vault.unwrap(kid, 'RSA-OAEP-256', new Uint8Array(length))).rejects.toBeInstanceOf(CheckoutDecryptionFailedError);
    }
    expect(decryptCalls(send)).toBe(0);
    await expect(vault.unwrap(kid, 'RSA-OAEP-256', new Uint8Array(256))).resolves.toHaveLength(32);
    expect(decryptCalls(send)).toBe(1);
  });
});

describe('the trial asks each KMS key once', () => {
  it('a key listed twice (its id and its ARN, say) costs one Decrypt, not two', async () => {
    const { KMSClient } = await import('@aws-sdk/client-kms');
    const { PayloadKeyVault } = await import('../../lib/adapters/kms/payload-key-vault.js');
    const client = new KMSClient({ endpoint: process.env.KMS_ENDPOINT, region: 'us-east-1' });
    const [stackKey] = await new PayloadKeyVault(client, [process.env.PAYLOAD_KEY_IDS!.split(',')[0]!]).publicKeys();
    const vault = new PayloadKeyVault(client, [process.env.PAYLOAD_KEY_IDS!.split(',')[0]!, stackKey!.kmsKeyArn], { logger: { info: vi.fn(), warn: vi.fn() } });
    const spy = vi.spyOn(client, 'send');
    const modulus = Buffer.from(stackKey!.jwk.n, 'base64url').length;
    await expect(vault.unwrap('unregistered-kid', 'RSA-OAEP-256', new Uint8Array(modulus).fill(7))).rejects.toMatchObject({
      code: 'CHECKOUT_DECRYPTION_FAILED',
    });
    expect(spy.mock.calls.filter(([command]) => command instanceof DecryptCommand)).toHaveLength(1);
  });
});
