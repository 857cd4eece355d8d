// Exercises the local KMS emulator through the real @aws-sdk/client-kms, so protocol
// drift (shapes, blob encoding, error mapping) shows up here rather than in app code.
// Self-contained: starts its own server, needs no global setup.
import {
  CreateAliasCommand,
  CreateKeyCommand,
  DecryptCommand,
  DescribeKeyCommand,
  DisableKeyCommand,
  EnableKeyCommand,
  EncryptCommand,
  GetPublicKeyCommand,
  KMSClient,
  ListAliasesCommand,
  ListKeysCommand,
  ScheduleKeyDeletionCommand,
  CancelKeyDeletionCommand,
  UpdateAliasCommand,
} from '@aws-sdk/client-kms';
import { CreateSecretCommand, GetSecretValueCommand, PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetParameterCommand, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { constants, createPublicKey, publicEncrypt, randomBytes, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKmsServer, type RunningKmsServer } from '../../infra/local/kms-server.js';

const ARN_PREFIX = 'arn:aws:kms:us-east-1:000000000000:';

function client(url: string): KMSClient {
  return new KMSClient({
    endpoint: url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1, // surface errors immediately instead of retrying
  });
}

async function createRsaKey(kms: KMSClient, alias?: string): Promise<string> {
  const { KeyMetadata } = await kms.send(new CreateKeyCommand({ KeySpec: 'RSA_2048', KeyUsage: 'ENCRYPT_DECRYPT', Description: 'test' }));
  if (alias) await kms.send(new CreateAliasCommand({ AliasName: alias, TargetKeyId: KeyMetadata!.KeyId! }));
  return KeyMetadata!.KeyId!;
}

async function createSymmetricKey(kms: KMSClient, alias?: string): Promise<string> {
  const { KeyMetadata } = await kms.send(new CreateKeyCommand({ KeySpec: 'SYMMETRIC_DEFAULT', KeyUsage: 'ENCRYPT_DECRYPT', Description: 'test' }));
  if (alias) await kms.send(new CreateAliasCommand({ AliasName: alias, TargetKeyId: KeyMetadata!.KeyId! }));
  return KeyMetadata!.KeyId!;
}

async function publicKey(kms: KMSClient, keyId: string): Promise<KeyObject> {
  const { PublicKey } = await kms.send(new GetPublicKeyCommand({ KeyId: keyId }));
  return createPublicKey({ key: Buffer.from(PublicKey!), format: 'der', type: 'spki' });
}

function oaepEncrypt(key: KeyObject, data: Buffer, oaepHash: 'sha1' | 'sha256'): Buffer {
  return publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash }, data);
}

/** Resolves to the rejection's `name` so assertions check the SDK-level error class. */
async function errorName(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    return (err as Error).name;
  }
  throw new Error('expected the call to fail');
}

async function rawPost(url: string, target: string, body: string, headers: Record<string, string> = { authorization: 'AWS4-HMAC-SHA256 Credential=local/x' }) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': target, ...headers }, body });
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    errorType: res.headers.get('x-amzn-errortype'),
    body: (await res.json()) as Record<string, unknown>,
  };
}

describe('local KMS emulator (in-memory)', () => {
  let server: RunningKmsServer;
  let kms: KMSClient;
  let keyA: string;
  let keyB: string;

  beforeAll(async () => {
    server = await startKmsServer({ port: 0 });
    kms = client(server.url);
    keyA = await createRsaKey(kms, 'alias/key-a');
    keyB = await createRsaKey(kms);
  });

  afterAll(async () => {
    kms?.destroy();
    await server?.close();
  });

  it('creates RSA keys with KMS-shaped metadata', async () => {
    const { KeyMetadata: md } = await kms.send(
      new CreateKeyCommand({ KeySpec: 'RSA_3072', KeyUsage: 'ENCRYPT_DECRYPT', Description: 'd', Tags: [{ TagKey: 'k', TagValue: 'v' }] }),
    );
    expect(md).toMatchObject({
      Arn: `${ARN_PREFIX}key/${md!.KeyId}`,
      KeySpec: 'RSA_3072',
      CustomerMasterKeySpec: 'RSA_3072',
      KeyUsage: 'ENCRYPT_DECRYPT',
      KeyState: 'Enabled',
      Enabled: true,
      Description: 'd',
      KeyManager: 'CUSTOMER',
      Origin: 'AWS_KMS',
      EncryptionAlgorithms: ['RSAES_OAEP_SHA_1', 'RSAES_OAEP_SHA_256'],
    });
    expect(md!.KeyId).toMatch(/^[0-9a-f-]{36}$/);
    expect(md!.CreationDate).toBeInstanceOf(Date); // epoch seconds on the wire, parsed by the SDK
    expect(Math.abs(md!.CreationDate!.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('describes a key via id, key ARN, alias name and alias ARN', async () => {
    for (const id of [keyA, `${ARN_PREFIX}key/${keyA}`, 'alias/key-a', `${ARN_PREFIX}alias/key-a`]) {
      const { KeyMetadata } = await kms.send(new DescribeKeyCommand({ KeyId: id }));
      expect(KeyMetadata!.KeyId).toBe(keyA);
    }
  });

  it('returns a DER SPKI public key usable for OAEP SHA-256 and SHA-1', async () => {
    const pub = await publicKey(kms, 'alias/key-a');
    expect(pub.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const { KeyId, KeySpec, KeyUsage, EncryptionAlgorithms } = await kms.send(new GetPublicKeyCommand({ KeyId: keyA }));
    expect({ KeyId, KeySpec, KeyUsage, EncryptionAlgorithms }).toEqual({
      KeyId: `${ARN_PREFIX}key/${keyA}`,
      KeySpec: 'RSA_2048',
      KeyUsage: 'ENCRYPT_DECRYPT',
      EncryptionAlgorithms: ['RSAES_OAEP_SHA_1', 'RSAES_OAEP_SHA_256'],
    });

    for (const [hash, algorithm] of [
      ['sha256', 'RSAES_OAEP_SHA_256'],
      ['sha1', 'RSAES_OAEP_SHA_1'],
    ] as const) {
      const secret = randomBytes(32);
      const out = await kms.send(new DecryptCommand({ KeyId: 'alias/key-a', CiphertextBlob: oaepEncrypt(pub, secret, hash), EncryptionAlgorithm: algorithm }));
      expect(Buffer.from(out.Plaintext!)).toEqual(secret);
      expect(out.KeyId).toBe(`${ARN_PREFIX}key/${keyA}`);
      expect(out.EncryptionAlgorithm).toBe(algorithm);
    }
  });

  it('round-trips Encrypt and Decrypt', async () => {
    const secret = Buffer.from('hello kms');
    const enc = await kms.send(new EncryptCommand({ KeyId: keyA, Plaintext: secret, EncryptionAlgorithm: 'RSAES_OAEP_SHA_256' }));
    expect(enc.CiphertextBlob!.length).toBe(256);
    const dec = await kms.send(new DecryptCommand({ KeyId: keyA, CiphertextBlob: enc.CiphertextBlob, EncryptionAlgorithm: 'RSAES_OAEP_SHA_256' }));
    expect(Buffer.from(dec.Plaintext!).toString()).toBe('hello kms');
  });

  it('maps decrypt failures to KMS error names', async () => {
    const ct = oaepEncrypt(await publicKey(kms, keyA), randomBytes(32), 'sha256');
    const decrypt = (KeyId: string, EncryptionAlgorithm: 'RSAES_OAEP_SHA_1' | 'RSAES_OAEP_SHA_256' | 'SYMMETRIC_DEFAULT' | undefined, CiphertextBlob = ct) =>
      kms.send(new DecryptCommand({ KeyId, CiphertextBlob, EncryptionAlgorithm }));

    expect(await errorName(decrypt(keyA, 'RSAES_OAEP_SHA_1'))).toBe('InvalidCiphertextException'); // wrong OAEP hash
    expect(await errorName(decrypt(keyB, 'RSAES_OAEP_SHA_256'))).toBe('InvalidCiphertextException'); // wrong key
    expect(await errorName(decrypt(keyA, 'RSAES_OAEP_SHA_256', Buffer.from('garbage')))).toBe('InvalidCiphertextException');
    expect(await errorName(decrypt(keyA, 'SYMMETRIC_DEFAULT'))).toBe('InvalidKeyUsageException');
    expect(await errorName(decrypt(keyA, undefined))).toBe('InvalidKeyUsageException'); // KMS defaults to SYMMETRIC_DEFAULT
    expect(await errorName(decrypt('00000000-0000-0000-0000-000000000000', 'RSAES_OAEP_SHA_256'))).toBe('NotFoundException');
    expect(await errorName(decrypt('alias/nope', 'RSAES_OAEP_SHA_256'))).toBe('NotFoundException');
    expect(await errorName(decrypt(`arn:aws:kms:eu-west-1:000000000000:key/${keyA}`, 'RSAES_OAEP_SHA_256'))).toBe('NotFoundException');
  });

  it('surfaces errors as typed SDK exceptions with fault and message', async () => {
    const err = await kms.send(new DescribeKeyCommand({ KeyId: 'alias/missing' })).then(
      () => expect.unreachable('DescribeKey should fail'),
      (e: unknown) => e as Error & { $fault: string; $metadata: { httpStatusCode: number } },
    );
    expect(err).toMatchObject({ name: 'NotFoundException', $fault: 'client', $metadata: { httpStatusCode: 400 } });
    expect(err.message).toContain('alias/missing');
  });

  it('manages aliases', async () => {
    expect(await errorName(kms.send(new CreateAliasCommand({ AliasName: 'alias/key-a', TargetKeyId: keyB })))).toBe('AlreadyExistsException');
    expect(await errorName(kms.send(new CreateAliasCommand({ AliasName: 'no-prefix', TargetKeyId: keyB })))).toBe('InvalidAliasNameException');
    expect(await errorName(kms.send(new CreateAliasCommand({ AliasName: 'alias/x', TargetKeyId: 'alias/key-a' })))).toBe('ValidationException');
    expect(await errorName(kms.send(new UpdateAliasCommand({ AliasName: 'alias/nope', TargetKeyId: keyB })))).toBe('NotFoundException');

    await kms.send(new CreateAliasCommand({ AliasName: 'alias/rotating', TargetKeyId: keyA }));
    await kms.send(new UpdateAliasCommand({ AliasName: 'alias/rotating', TargetKeyId: `${ARN_PREFIX}key/${keyB}` }));
    expect((await kms.send(new DescribeKeyCommand({ KeyId: 'alias/rotating' }))).KeyMetadata!.KeyId).toBe(keyB);

    const { Aliases } = await kms.send(new ListAliasesCommand({ KeyId: keyB }));
    expect(Aliases).toEqual([expect.objectContaining({ AliasName: 'alias/rotating', AliasArn: `${ARN_PREFIX}alias/rotating`, TargetKeyId: keyB })]);
    const { Keys } = await kms.send(new ListKeysCommand({}));
    expect(Keys).toContainEqual({ KeyId: keyA, KeyArn: `${ARN_PREFIX}key/${keyA}` });
  });

  it('enforces key states', async () => {
    const key = await createRsaKey(kms);
    const use = () => kms.send(new GetPublicKeyCommand({ KeyId: key }));
    await kms.send(new DisableKeyCommand({ KeyId: key }));
    expect(await errorName(use())).toBe('DisabledException');
    await kms.send(new EnableKeyCommand({ KeyId: key }));
    await use();
    const scheduled = await kms.send(new ScheduleKeyDeletionCommand({ KeyId: key, PendingWindowInDays: 7 }));
    expect(scheduled).toMatchObject({ KeyState: 'PendingDeletion', PendingWindowInDays: 7 });
    expect(scheduled.DeletionDate).toBeInstanceOf(Date);
    expect(await errorName(use())).toBe('KMSInvalidStateException');
    expect((await kms.send(new DescribeKeyCommand({ KeyId: key }))).KeyMetadata).toMatchObject({ KeyState: 'PendingDeletion', Enabled: false });
    await kms.send(new CancelKeyDeletionCommand({ KeyId: key }));
    expect(await errorName(use())).toBe('DisabledException');
  });

  it('rejects unsupported key specs', async () => {
    expect(await errorName(kms.send(new CreateKeyCommand({ KeySpec: 'ECC_NIST_P256' })))).toBe('UnsupportedOperationException');
    expect(await errorName(kms.send(new CreateKeyCommand({ KeySpec: 'HMAC_256', KeyUsage: 'GENERATE_VERIFY_MAC' })))).toBe('UnsupportedOperationException');
    expect(await errorName(kms.send(new CreateKeyCommand({ KeySpec: 'toString' as never })))).toBe('UnsupportedOperationException');
    expect(await errorName(kms.send(new CreateKeyCommand({ KeySpec: 'RSA_2048', KeyUsage: 'SIGN_VERIFY' })))).toBe('UnsupportedOperationException');
  });

  describe('symmetric keys (SYMMETRIC_DEFAULT)', () => {
    const context = { purpose: 'test', merchantRef: 'm-1' };
    let sym: string;
    let otherSym: string;

    beforeAll(async () => {
      sym = await createSymmetricKey(kms, 'alias/sym-a');
      otherSym = await createSymmetricKey(kms);
    });

    it('creates them by default, like KMS, with SYMMETRIC_DEFAULT metadata and no public key', async () => {
      const { KeyMetadata: md } = await kms.send(new CreateKeyCommand({}));
      expect(md).toMatchObject({ KeySpec: 'SYMMETRIC_DEFAULT', KeyUsage: 'ENCRYPT_DECRYPT', KeyState: 'Enabled', EncryptionAlgorithms: ['SYMMETRIC_DEFAULT'] });
      expect((await kms.send(new DescribeKeyCommand({ KeyId: 'alias/sym-a' }))).KeyMetadata).toMatchObject({ KeyId: sym, KeySpec: 'SYMMETRIC_DEFAULT' });
      expect(await errorName(kms.send(new GetPublicKeyCommand({ KeyId: sym })))).toBe('UnsupportedOperationException');
      expect(await errorName(kms.send(new CreateKeyCommand({ KeySpec: 'SYMMETRIC_DEFAULT', KeyUsage: 'SIGN_VERIFY' })))).toBe('UnsupportedOperationException');
    });

    it('round-trips with an encryption context, with or without KeyId, through any key form', async () => {
      const secret = randomBytes(48);
      const enc = await kms.send(new EncryptCommand({ KeyId: 'alias/sym-a', Plaintext: secret, EncryptionContext: context }));
      expect(enc).toMatchObject({ KeyId: `${ARN_PREFIX}key/${sym}`, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' });
      const blob = Buffer.from(enc.CiphertextBlob!);
      expect(blob.includes(secret)).toBe(false);
      // Key order in the context does not matter, as in KMS.
      const reversed = { merchantRef: 'm-1', purpose: 'test' };
      for (const KeyId of [undefined, sym, `${ARN_PREFIX}key/${sym}`, 'alias/sym-a', `${ARN_PREFIX}alias/sym-a`]) {
        const dec = await kms.send(new DecryptCommand({ KeyId, CiphertextBlob: blob, EncryptionContext: reversed }));
        expect(Buffer.from(dec.Plaintext!), String(KeyId)).toEqual(secret);
        expect(dec).toMatchObject({ KeyId: `${ARN_PREFIX}key/${sym}`, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' });
      }
      // No context at all works too, and two encryptions of one plaintext differ (random IV).
      const plain = await kms.send(new EncryptCommand({ KeyId: sym, Plaintext: secret }));
      expect(Buffer.from(plain.CiphertextBlob!)).not.toEqual(blob);
      expect(Buffer.from((await kms.send(new DecryptCommand({ CiphertextBlob: plain.CiphertextBlob }))).Plaintext!)).toEqual(secret);
    });

    it('binds the encryption context: another, a missing or an extra pair is InvalidCiphertextException', async () => {
      const { CiphertextBlob } = await kms.send(new EncryptCommand({ KeyId: sym, Plaintext: Buffer.from('s'), EncryptionContext: context }));
      const decrypt = (EncryptionContext?: Record<string, string>) => kms.send(new DecryptCommand({ CiphertextBlob, EncryptionContext }));
      expect(await errorName(decrypt({ ...context, merchantRef: 'm-2' }))).toBe('InvalidCiphertextException');
      expect(await errorName(decrypt(undefined))).toBe('InvalidCiphertextException');
      expect(await errorName(decrypt({ purpose: 'test' }))).toBe('InvalidCiphertextException');
      expect(await errorName(decrypt({ ...context, extra: 'x' }))).toBe('InvalidCiphertextException');
      const tampered = Buffer.from(CiphertextBlob!);
      tampered[tampered.length - 1]! ^= 1;
      expect(await errorName(kms.send(new DecryptCommand({ CiphertextBlob: tampered, EncryptionContext: context })))).toBe('InvalidCiphertextException');
    });

    it('refuses a KeyId other than the blob’s key with IncorrectKeyException', async () => {
      const { CiphertextBlob } = await kms.send(new EncryptCommand({ KeyId: sym, Plaintext: Buffer.from('s') }));
      expect(await errorName(kms.send(new DecryptCommand({ KeyId: otherSym, CiphertextBlob })))).toBe('IncorrectKeyException');
      expect(await errorName(kms.send(new DecryptCommand({ KeyId: keyA, CiphertextBlob })))).toBe('IncorrectKeyException');
      expect(await errorName(kms.send(new DecryptCommand({ KeyId: 'alias/nope', CiphertextBlob })))).toBe('NotFoundException');
    });

    it('maps algorithm, size, state and garbage errors like KMS', async () => {
      const { CiphertextBlob } = await kms.send(new EncryptCommand({ KeyId: sym, Plaintext: Buffer.from('s') }));
      expect(await errorName(kms.send(new EncryptCommand({ KeyId: sym, Plaintext: Buffer.from('s'), EncryptionAlgorithm: 'RSAES_OAEP_SHA_256' })))).toBe(
        'InvalidKeyUsageException',
      );
      expect(await errorName(kms.send(new DecryptCommand({ CiphertextBlob, EncryptionAlgorithm: 'RSAES_OAEP_SHA_256' })))).toBe('InvalidKeyUsageException');
      expect(await errorName(kms.send(new EncryptCommand({ KeyId: sym, Plaintext: randomBytes(4097) })))).toBe('ValidationException');
      await kms.send(new EncryptCommand({ KeyId: sym, Plaintext: randomBytes(4096) }));
      // Garbage, or an RSA ciphertext, names no key: without a KeyId nothing can decrypt it.
      expect(await errorName(kms.send(new DecryptCommand({ CiphertextBlob: randomBytes(100) })))).toBe('InvalidCiphertextException');
      expect(await errorName(kms.send(new DecryptCommand({ KeyId: sym, CiphertextBlob: randomBytes(100) })))).toBe('InvalidCiphertextException');
      const rsaCiphertext = oaepEncrypt(await publicKey(kms, keyA), randomBytes(32), 'sha256');
      expect(await errorName(kms.send(new DecryptCommand({ CiphertextBlob: rsaCiphertext, EncryptionAlgorithm: 'RSAES_OAEP_SHA_256' })))).toBe(
        'InvalidCiphertextException',
      );
      expect(await errorName(kms.send(new DecryptCommand({ KeyId: sym, CiphertextBlob: rsaCiphertext })))).toBe('InvalidCiphertextException');
      // An RSA key still refuses SYMMETRIC_DEFAULT.
      expect(await errorName(kms.send(new EncryptCommand({ KeyId: keyA, Plaintext: Buffer.from('s') })))).toBe('InvalidKeyUsageException');

      const key = await createSymmetricKey(kms);
      const sealed = (await kms.send(new EncryptCommand({ KeyId: key, Plaintext: Buffer.from('s') }))).CiphertextBlob;
      await kms.send(new DisableKeyCommand({ KeyId: key }));
      expect(await errorName(kms.send(new EncryptCommand({ KeyId: key, Plaintext: Buffer.from('s') })))).toBe('DisabledException');
      expect(await errorName(kms.send(new DecryptCommand({ CiphertextBlob: sealed })))).toBe('DisabledException');
    });

    it('rejects an encryption context that is not a map of strings', async () => {
      const body = JSON.stringify({ KeyId: sym, Plaintext: Buffer.from('s').toString('base64'), EncryptionContext: { a: 1 } });
      expect((await rawPost(server.url, 'TrentService.Encrypt', body)).body.__type).toBe('ValidationException');
    });
  });

  describe('raw protocol', () => {
    it('answers with awsJson1_1 content type and __type errors', async () => {
      const ok = await rawPost(server.url, 'TrentService.DescribeKey', JSON.stringify({ KeyId: keyA }));
      expect(ok).toMatchObject({ status: 200, contentType: 'application/x-amz-json-1.1' });
      expect(JSON.stringify(ok.body)).not.toMatch(/PRIVATE/);
    });

    it('requires an Authorization header', async () => {
      const res = await rawPost(server.url, 'TrentService.ListKeys', '{}', {});
      expect(res).toMatchObject({ status: 400, errorType: 'UnrecognizedClientException', body: { __type: 'UnrecognizedClientException' } });
      expect(res.body.message).toEqual(expect.any(String));
    });

    it('rejects malformed JSON and missing required members', async () => {
      expect((await rawPost(server.url, 'TrentService.DescribeKey', '{not json')).body.__type).toBe('ValidationException');
      expect((await rawPost(server.url, 'TrentService.DescribeKey', '[]')).body.__type).toBe('ValidationException');
      const missing = await rawPost(server.url, 'TrentService.DescribeKey', '{}');
      expect(missing).toMatchObject({ status: 400, body: { __type: 'ValidationException' } });
      expect(missing.body.message).toContain("'keyId'");
      expect((await rawPost(server.url, 'TrentService.Decrypt', JSON.stringify({ KeyId: keyA, CiphertextBlob: '!!' }))).body.__type).toBe(
        'ValidationException',
      );
    });

    it('rejects unknown operations', async () => {
      for (const target of ['TrentService.Frobnicate', 'DynamoDB_20120810.ListTables', 'TrentService.constructor']) {
        expect(await rawPost(server.url, target, '{}')).toMatchObject({ status: 400, body: { __type: 'UnknownOperationException' } });
      }
    });
  });
});

describe('local KMS emulator persistence', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kms-server-test-'));
  const dataFile = join(dir, 'nested', 'kms.json');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps keys and aliases across restarts', async () => {
    const secret = randomBytes(48);
    let first: RunningKmsServer | undefined = await startKmsServer({ dataFile });
    let kms = client(first.url);
    let ciphertext: Buffer;
    let keyId: string;
    let symmetricCiphertext: Uint8Array;
    try {
      keyId = await createRsaKey(kms, 'alias/persisted');
      ciphertext = oaepEncrypt(await publicKey(kms, 'alias/persisted'), secret, 'sha256');
      await createSymmetricKey(kms, 'alias/persisted-symmetric');
      symmetricCiphertext = (await kms.send(new EncryptCommand({ KeyId: 'alias/persisted-symmetric', Plaintext: secret, EncryptionContext: { k: 'v' } })))
        .CiphertextBlob!;
    } finally {
      kms.destroy();
      await first.close();
      first = undefined;
    }
    expect(statSync(dataFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(dataFile, 'utf8')).toContain('alias/persisted');

    const second = await startKmsServer({ dataFile });
    kms = client(second.url);
    try {
      const { KeyMetadata } = await kms.send(new DescribeKeyCommand({ KeyId: 'alias/persisted' }));
      expect(KeyMetadata!.KeyId).toBe(keyId);
      const out = await kms.send(new DecryptCommand({ KeyId: 'alias/persisted', CiphertextBlob: ciphertext, EncryptionAlgorithm: 'RSAES_OAEP_SHA_256' }));
      expect(Buffer.from(out.Plaintext!)).toEqual(secret);
      const symmetric = await kms.send(new DecryptCommand({ CiphertextBlob: symmetricCiphertext, EncryptionContext: { k: 'v' } }));
      expect(Buffer.from(symmetric.Plaintext!)).toEqual(secret);
      expect((await kms.send(new DescribeKeyCommand({ KeyId: 'alias/persisted-symmetric' }))).KeyMetadata!.KeySpec).toBe('SYMMETRIC_DEFAULT');
    } finally {
      kms.destroy();
      await second.close();
    }
  });

  it('keeps Secrets Manager secrets and SSM parameters across restarts, under the same ARNs, when given a secrets file (npm start: a KMS server that died is started again)', async () => {
    const secretsFile = join(dir, 'secrets.json');
    const clients = (url: string) => {
      const options = { endpoint: url, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 };
      return { secrets: new SecretsManagerClient(options), ssm: new SSMClient(options) };
    };
    const first = await startKmsServer({ secretsFile });
    let { secrets, ssm } = clients(first.url);
    let arn: string;
    try {
      arn = (await secrets.send(new CreateSecretCommand({ Name: 'processors/demo', SecretString: '{"apiKey":"one"}' }))).ARN!;
      await secrets.send(new PutSecretValueCommand({ SecretId: arn, SecretString: '{"apiKey":"two"}' }));
      await ssm.send(new PutParameterCommand({ Name: '/processors/hmac', Value: 'abcd', Type: 'SecureString' }));
    } finally {
      secrets.destroy();
      ssm.destroy();
      await first.close();
    }
    expect(statSync(secretsFile).mode & 0o777).toBe(0o600);

    const second = await startKmsServer({ secretsFile });
    ({ secrets, ssm } = clients(second.url));
    try {
      expect(await secrets.send(new GetSecretValueCommand({ SecretId: arn }))).toMatchObject({ ARN: arn, SecretString: '{"apiKey":"two"}' });
      expect((await ssm.send(new GetParameterCommand({ Name: '/processors/hmac', WithDecryption: true }))).Parameter?.Value).toBe('abcd');
      await expect(secrets.send(new CreateSecretCommand({ Name: 'processors/demo', SecretString: '{}' }))).rejects.toMatchObject({
        name: 'ResourceExistsException',
      });
    } finally {
      secrets.destroy();
      ssm.destroy();
      await second.close();
    }

    // Without a file nothing is kept: a fresh server knows no secret.
    const inMemory = await startKmsServer({});
    ({ secrets, ssm } = clients(inMemory.url));
    try {
      await expect(secrets.send(new GetSecretValueCommand({ SecretId: arn }))).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    } finally {
      secrets.destroy();
      ssm.destroy();
      await inMemory.close();
    }
  });
});
