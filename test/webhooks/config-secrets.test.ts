import { CreateKeyCommand, DescribeKeyCommand, KMSClient, ListAliasesCommand } from '@aws-sdk/client-kms';
import { createRequire } from 'node:module';
import { describe, expect, it, vi } from 'vitest';
import { ensureKey, LOCAL_CREDENTIALS, LOCAL_REGION, WEBHOOK_SECRETS_KEY_ALIAS } from '../../infra/local/stack.js';
import { kmsClient } from '../../lib/composition/aws.js';
import { DependencyUnavailableError, InternalError } from '../../lib/core/errors.js';
import { CachingSecretSealer, MAX_OPENED_SECRET_TTL_MS } from '../../lib/adapters/kms/opened-secret-cache.js';
import { KmsSecretSealer, WEBHOOK_SECRET_PURPOSE, type SecretSealer } from '../../lib/adapters/kms/webhook-secret-sealer.js';
import { newSigningSecret } from '../../lib/core/webhooks/signing.js';
import { isStandardWebhooksSecret, standardWebhooksSignature } from './support.js';
import { errorHeaders } from '../../lib/http/error-status.js';

const keyId = () => process.env.WEBHOOK_SECRETS_KEY_ID!;
const unreachable = new KMSClient({
  endpoint: 'http://127.0.0.1:9',
  region: 'us-east-1',
  maxAttempts: 1,
  credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
});
const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('expected a failure'),
    (e: unknown) => e,
  );

describe('signing secrets (Standard Webhooks format)', () => {
  it('reproduces the specification’s published test vector (the helper the tests verify with)', () => {
    expect(standardWebhooksSignature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('are whsec_ + base64 of 32 random bytes, each one new', () => {
    const secrets = Array.from({ length: 50 }, () => newSigningSecret());
    for (const secret of secrets) expect(isStandardWebhooksSecret(secret), secret).toBe(true);
    expect(new Set(secrets).size).toBe(50);
    expect(standardWebhooksSignature(secrets[0]!, 'msg_1', 1, '{}')).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });
});

describe('WEBHOOK_SECRETS_KEY_ID', () => {
  it('is set by the local stack to its symmetric key, and required where it is loaded', async () => {
    expect(keyId()).toBe(WEBHOOK_SECRETS_KEY_ALIAS);
    const { KeyMetadata } = await kmsClient.send(new DescribeKeyCommand({ KeyId: keyId() }));
    expect(KeyMetadata).toMatchObject({ KeySpec: 'SYMMETRIC_DEFAULT', KeyUsage: 'ENCRYPT_DECRYPT' });

    vi.resetModules();
    const saved = process.env.WEBHOOK_SECRETS_KEY_ID;
    try {
      process.env.WEBHOOK_SECRETS_KEY_ID = '  ';
      await expect(import('../../lib/composition/config/webhook-secrets-config.js')).rejects.toThrow(/Invalid configuration: check WEBHOOK_SECRETS_KEY_ID/);
      vi.resetModules();
      process.env.WEBHOOK_SECRETS_KEY_ID = ' alias/x ';
      expect((await import('../../lib/composition/config/webhook-secrets-config.js')).webhookSecretsConfig.WEBHOOK_SECRETS_KEY_ID).toBe('alias/x');
    } finally {
      process.env.WEBHOOK_SECRETS_KEY_ID = saved;
      vi.resetModules();
    }
  });

  it('deployed stages always name the stack’s own key (the one IAM grants); only the local stage may name another', () => {
    const iam = createRequire(import.meta.url)('../../infra/serverless/iam.cjs') as {
      webhookSecretsKeyId: (service: string, stage: string, override?: string) => string;
      webhookSecretsKeyStatement: (sid: string, actions: string[]) => Record<string, unknown>;
    };
    expect(iam.webhookSecretsKeyId('click-to-pay', 'prod', 'arn:aws:kms:eu-west-1:111122223333:key/other')).toBe('alias/click-to-pay-prod-webhook-secrets');
    expect(iam.webhookSecretsKeyId('click-to-pay', 'local', undefined)).toBe(WEBHOOK_SECRETS_KEY_ALIAS);
    expect(iam.webhookSecretsKeyId('click-to-pay', 'local', 'alias/mine')).toBe('alias/mine');
    // The delivery worker's grant is built the same way: the condition names the purpose the code sends.
    expect(WEBHOOK_SECRET_PURPOSE).toBe('webhook-signing-secret');
    expect(iam.webhookSecretsKeyStatement('Open', ['Decrypt'])).toEqual({
      Sid: 'Open',
      Effect: 'Allow',
      Action: ['kms:Decrypt'],
      Resource: [{ 'Fn::GetAtt': ['WebhookSecretsKey', 'Arn'] }],
      Condition: { StringEquals: { 'kms:EncryptionContext:purpose': 'webhook-signing-secret' } },
    });
  });

  it('the local stack creates its key once: a second start reuses the alias', async () => {
    const alias = `alias/test-webhook-${Date.now()}`;
    await ensureKey(process.env.KMS_ENDPOINT!, alias, 'SYMMETRIC_DEFAULT', 'test');
    const first = (await kmsClient.send(new DescribeKeyCommand({ KeyId: alias }))).KeyMetadata!.KeyId;
    await ensureKey(process.env.KMS_ENDPOINT!, alias, 'SYMMETRIC_DEFAULT', 'test');
    expect((await kmsClient.send(new DescribeKeyCommand({ KeyId: alias }))).KeyMetadata!.KeyId).toBe(first);
    const local = new KMSClient({ endpoint: process.env.KMS_ENDPOINT!, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
    const { Aliases = [] } = await local.send(new ListAliasesCommand({}));
    expect(Aliases.filter((a) => a.AliasName === alias)).toHaveLength(1);
    local.destroy();
  });
});

describe('KmsSecretSealer', () => {
  it('seals into an opaque blob that opens only for the same merchant', async () => {
    const sealer = new KmsSecretSealer(kmsClient, keyId());
    const secret = newSigningSecret();
    const sealed = await sealer.seal(secret, 'm-1');
    const raw = Buffer.from(secret.slice(6), 'base64');
    expect(sealed).not.toContain(secret.slice(6));
    expect(Buffer.from(sealed, 'base64').includes(raw)).toBe(false);
    expect(Buffer.from(sealed, 'base64').includes(Buffer.from(secret))).toBe(false);
    expect(await sealer.open(sealed, 'm-1')).toBe(secret);
    // A sealed secret copied onto another merchant's record does not open (encryption context).
    const moved = await errorOf(sealer.open(sealed, 'm-2'));
    expect(moved).toBeInstanceOf(InternalError);
    expect(String((moved as Error).message)).not.toContain(secret);
  });

  it('KMS unreachable → 503 DependencyUnavailableError with Retry-After', async () => {
    const sealer = new KmsSecretSealer(unreachable, keyId());
    for (const call of [sealer.seal(newSigningSecret(), 'm'), sealer.open('AAAA', 'm')]) {
      const error = await errorOf(call);
      expect(error).toBeInstanceOf(DependencyUnavailableError);
      expect(errorHeaders(error as DependencyUnavailableError)['Retry-After']).toBe('1');
    }
  });

  it('an answer without the blob is no outage: 500, not a 503 that invites retries', async () => {
    const empty = { send: async () => ({}) } as unknown as ConstructorParameters<typeof KmsSecretSealer>[0];
    const sealer = new KmsSecretSealer(empty, keyId());
    for (const call of [sealer.seal(newSigningSecret(), 'm'), sealer.open('AAAA', 'm')]) expect(await errorOf(call)).toBeInstanceOf(InternalError);
  });

  it('a wrong key (missing, or not symmetric) is our misconfiguration: 500', async () => {
    expect(await errorOf(new KmsSecretSealer(kmsClient, 'alias/no-such-key').seal('whsec_x', 'm'))).toBeInstanceOf(InternalError);
    expect(await errorOf(new KmsSecretSealer(kmsClient, process.env.PAYLOAD_KEY_IDS!).seal('whsec_x', 'm'))).toBeInstanceOf(InternalError);
    // A blob sealed under another key does not open with ours (Decrypt names our key).
    const { KeyMetadata } = await kmsClient.send(new CreateKeyCommand({ KeySpec: 'SYMMETRIC_DEFAULT' }));
    const foreign = await new KmsSecretSealer(kmsClient, KeyMetadata!.KeyId!).seal('whsec_x', 'm');
    expect(await errorOf(new KmsSecretSealer(kmsClient, keyId()).open(foreign, 'm'))).toBeInstanceOf(InternalError);
  });
});

describe('CachingSecretSealer (opened secrets in a warm Lambda)', () => {
  function counting() {
    const calls = { open: 0, seal: 0 };
    let fail = false;
    const inner: SecretSealer = {
      seal: async (secret, merchantRef) => (calls.seal++, `sealed:${merchantRef}:${secret}`),
      open: async (sealed, merchantRef) => {
        calls.open++;
        if (fail) throw new DependencyUnavailableError();
        return `${merchantRef}/${sealed}`;
      },
    };
    return { inner, calls, failNext: (value: boolean) => (fail = value) };
  }

  it('opens each sealed value once per 5 minutes at most, per merchant', async () => {
    let now = 1_000_000;
    const { inner, calls } = counting();
    const cache = new CachingSecretSealer(inner, { now: () => now });
    expect(await cache.open('a', 'm1')).toBe('m1/a');
    expect(await cache.open('a', 'm1')).toBe('m1/a');
    expect(calls.open).toBe(1);
    expect(await cache.open('a', 'm2')).toBe('m2/a'); // never served across merchants
    expect(calls.open).toBe(2);
    now += MAX_OPENED_SECRET_TTL_MS - 1;
    await cache.open('a', 'm1');
    expect(calls.open).toBe(2);
    now += 1;
    await cache.open('a', 'm1');
    expect(calls.open).toBe(3);
    await cache.seal('s', 'm1');
    await cache.seal('s', 'm1');
    expect(calls.seal).toBe(2); // sealing is never cached
  });

  it('caps the TTL at 5 minutes, bounds its size and does not cache failures', async () => {
    let now = 0;
    const { inner, calls, failNext } = counting();
    const cache = new CachingSecretSealer(inner, { now: () => now, ttlMs: 60 * 60_000, maxEntries: 2 });
    await cache.open('a', 'm');
    now = MAX_OPENED_SECRET_TTL_MS;
    await cache.open('a', 'm');
    expect(calls.open).toBe(2);
    await cache.open('b', 'm');
    await cache.open('c', 'm'); // evicts a
    await cache.open('a', 'm');
    expect(calls.open).toBe(5);
    failNext(true);
    await expect(cache.open('d', 'm')).rejects.toBeInstanceOf(DependencyUnavailableError);
    failNext(false);
    expect(await cache.open('d', 'm')).toBe('m/d');
  });
});
