import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SSMClient } from '@aws-sdk/client-ssm';
import { describe, expect, it } from 'vitest';
import { withDeadlines } from '../../lib/adapters/aws/clients.js';
import { AwsSecretSource, CachingSecretSource, MAX_SECRET_TTL_MS, type SecretSource } from '../../lib/adapters/secrets/secret-source.js';
import { adyenHmacKeys } from '../../lib/adapters/processors/adyen/config.js';
import { DependencyUnavailableError, InternalError } from '../../lib/core/errors.js';
import { putParameter, putSecret } from '../support/processor-world.js';
import { everythingIn } from './support.js';

/** Processor secrets by ARN (SPEC 4.7): Secrets Manager or SSM, deadlines, a short cache, nothing quoted. */
const local = { region: process.env.AWS_REGION!, credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 };
const source = (endpoint = process.env.SECRETS_MANAGER_ENDPOINT!) =>
  new AwsSecretSource({
    secretsManager: async () => withDeadlines(new SecretsManagerClient({ ...local, endpoint }), 1_000),
    ssm: async () => withDeadlines(new SSMClient({ ...local, endpoint }), 1_000),
  });

describe('secrets read by ARN', () => {
  it('reads a Secrets Manager secret and an SSM SecureString parameter', async () => {
    expect(await source().read(await putSecret({ apiKey: 'AQE_secret_value' }))).toBe('{"apiKey":"AQE_secret_value"}');
    expect(await source().read(await putParameter('CAFEBABE'))).toBe('CAFEBABE');
  });

  it('a missing secret is a configuration error (500 for operators), its ARN and value never in the error', async () => {
    const arn = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:click-to-pay/test/processors/none-AbCdEf';
    const error = await source()
      .read(arn)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InternalError);
    expect(everythingIn(error)).not.toContain('none-AbCdEf');
  });

  it('an unreachable store is DEPENDENCY_UNAVAILABLE within the call’s deadline', async () => {
    const started = Date.now();
    await expect(source('http://127.0.0.1:9').read('arn:aws:ssm:us-east-1:000000000000:parameter/x')).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('anything but a Secrets Manager or SSM ARN is refused without a call', async () => {
    await expect(source('http://127.0.0.1:9').read('arn:aws:s3:::bucket/key')).rejects.toBeInstanceOf(InternalError);
  });
});

describe('the secret cache', () => {
  const counting = (values: (() => Promise<string>)[]) => {
    const calls: string[] = [];
    const inner: SecretSource = {
      read: (arn) => {
        calls.push(arn);
        return values[Math.min(calls.length - 1, values.length - 1)]!();
      },
    };
    return { inner, calls };
  };

  it('reads a secret once per TTL (at most five minutes), shares a read in flight, and picks a rotation up after it', async () => {
    let now = 0;
    const { inner, calls } = counting([async () => 'old', async () => 'new']);
    const cache = new CachingSecretSource(inner, { ttlMs: 60 * 60_000, now: () => now });
    expect(await Promise.all([cache.read('arn:a'), cache.read('arn:a')])).toEqual(['old', 'old']);
    now += MAX_SECRET_TTL_MS - 1;
    expect(await cache.read('arn:a')).toBe('old');
    now += 1;
    expect(await cache.read('arn:a')).toBe('new');
    expect(calls).toEqual(['arn:a', 'arn:a']);
  });

  it('does not keep a failure', async () => {
    const { inner, calls } = counting([async () => Promise.reject(new Error('down')), async () => 'value']);
    const cache = new CachingSecretSource(inner);
    await expect(cache.read('arn:b')).rejects.toThrow('down');
    expect(await cache.read('arn:b')).toBe('value');
    expect(calls).toHaveLength(2);
  });
});

describe('Adyen notification keys', () => {
  it('takes the hex key as the Customer Area shows it, or current and previous during a rotation', () => {
    expect(adyenHmacKeys('AB'.repeat(32))).toEqual(['AB'.repeat(32)]);
    expect(adyenHmacKeys(JSON.stringify({ hmacKey: 'AB'.repeat(32), previousHmacKey: 'CD'.repeat(32) }))).toEqual(['AB'.repeat(32), 'CD'.repeat(32)]);
  });

  it('refuses anything else without quoting it', () => {
    for (const bad of ['not-hex-at-all', '{"hmacKey": 1}', '{broken']) {
      const error = (() => {
        try {
          adyenHmacKeys(bad);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(Error);
      expect(everythingIn(error)).not.toContain(bad);
    }
  });
});
