import { StoreConflictError } from '../../lib/core/ports/store-conflict.js';
import { describe, expect, it } from 'vitest';
import { kmsClient } from '../../lib/composition/aws.js';
import { configRepository } from '../../lib/composition/core.js';
import { webhookConfigRepository } from '../../lib/composition/webhooks.js';
import type { WebhookConfig } from '../../lib/core/domain/webhook-config.js';
import { DependencyUnavailableError, InvalidRequestError, NotFoundError } from '../../lib/core/errors.js';

import type { WebhookConfigStore } from '../../lib/adapters/dynamodb/webhook-config-repository.js';
import { MAX_PREVIOUS_SECRETS, SECRET_OVERLAP_MS } from '../../lib/core/webhooks/rotation.js';
import { KmsSecretSealer } from '../../lib/adapters/kms/webhook-secret-sealer.js';
import { getWebhookConfig, putWebhookConfig, rotateWebhookSecret, signingSecrets, type WebhookConfigDeps } from '../../lib/core/webhooks/webhook-config.js';
import { seedMerchant } from '../support/seed.js';
import { dnsWebhookUrlCheck } from '../../lib/adapters/webhooks/url-guard.js';

/** 4.15 use cases over the real Config table and KMS, with a clock the test moves. */
const platform = { kind: 'platform', subject: 'test', permissions: new Set<string>() } as const;
const HOOK = 'http://127.0.0.1:8080/webhooks';
const HOUR = 3600_000;

function depsAt(start: number, store: WebhookConfigStore = webhookConfigRepository) {
  const clock = { now: start };
  const deps: WebhookConfigDeps = {
    merchants: configRepository,
    webhooks: store,
    sealer: new KmsSecretSealer(kmsClient, process.env.WEBHOOK_SECRETS_KEY_ID!),
    now: () => clock.now,
    urls: dnsWebhookUrlCheck(),
  };
  return { deps, clock };
}

async function configured(start = Date.UTC(2030, 0, 1)) {
  const { merchantRef } = await seedMerchant();
  const { deps, clock } = depsAt(start);
  const { signingSecret } = await putWebhookConfig(deps, platform, merchantRef, { url: HOOK });
  return { merchantRef, deps, clock, first: signingSecret! };
}

const live = async (deps: WebhookConfigDeps, merchantRef: string, at: number) => (await signingSecrets(deps, merchantRef, at))!.secrets;

describe('rotation keeps the previous secret for 24 h', () => {
  it('both sign for 24 h, then only the new one; a later rotation drops the expired one from storage', async () => {
    const { merchantRef, deps, clock, first } = await configured();
    expect(await live(deps, merchantRef, clock.now)).toEqual([first]);

    clock.now += HOUR;
    const rotatedAt = clock.now;
    const { signingSecret: second, previousSecretExpiresAt } = await rotateWebhookSecret(deps, platform, merchantRef);
    expect(previousSecretExpiresAt).toBe(new Date(rotatedAt + SECRET_OVERLAP_MS).toISOString());
    expect(await live(deps, merchantRef, rotatedAt)).toEqual([second, first]);
    expect(await live(deps, merchantRef, rotatedAt + SECRET_OVERLAP_MS - 1)).toEqual([second, first]);
    expect(await live(deps, merchantRef, rotatedAt + SECRET_OVERLAP_MS)).toEqual([second]);
    expect((await getWebhookConfig(deps, platform, merchantRef)).secretRotatedAt).toBe(new Date(rotatedAt).toISOString());

    clock.now = rotatedAt + SECRET_OVERLAP_MS + HOUR;
    const { signingSecret: third } = await rotateWebhookSecret(deps, platform, merchantRef);
    const stored = (await webhookConfigRepository.get(merchantRef, { consistent: true }))!;
    expect(stored.secrets).toHaveLength(2); // the first one had expired: dropped
    expect(stored.secrets[0]!.expiresAt).toBeUndefined();
    expect(stored.secrets[1]!.expiresAt).toBe(new Date(clock.now + SECRET_OVERLAP_MS).toISOString());
    expect(await live(deps, merchantRef, clock.now)).toEqual([third, second]);
  });

  it('rotating again within 24 h keeps every unexpired secret, newest first, up to a bound', async () => {
    const { merchantRef, deps, clock, first } = await configured();
    clock.now += HOUR;
    const { signingSecret: second } = await rotateWebhookSecret(deps, platform, merchantRef);
    clock.now += HOUR;
    const { signingSecret: third } = await rotateWebhookSecret(deps, platform, merchantRef);
    expect(await live(deps, merchantRef, clock.now)).toEqual([third, second, first]);
    // `first` still expires 24 h after the first rotation, not the second.
    expect(await live(deps, merchantRef, clock.now - HOUR + SECRET_OVERLAP_MS)).toEqual([third, second]);

    for (let i = 0; i < MAX_PREVIOUS_SECRETS + 2; i++) await rotateWebhookSecret(deps, platform, merchantRef);
    expect(await live(deps, merchantRef, clock.now)).toHaveLength(MAX_PREVIOUS_SECRETS + 1);
  });

  it('a PUT keeps the secrets and the rotation state', async () => {
    const { merchantRef, deps, clock, first } = await configured();
    const { signingSecret: second } = await rotateWebhookSecret(deps, platform, merchantRef);
    clock.now += HOUR;
    expect(await putWebhookConfig(deps, platform, merchantRef, { url: 'http://localhost:1/x', enabled: false })).toEqual({
      url: 'http://localhost:1/x',
      enabled: false,
    });
    expect(await signingSecrets(deps, merchantRef, clock.now)).toEqual({
      url: 'http://localhost:1/x',
      enabled: false,
      allowLoopback: true,
      secrets: [second, first],
    });
  });

  it('rotation needs a configured webhook and a covered merchant', async () => {
    const { merchantRef } = await seedMerchant();
    const { deps } = depsAt(Date.now());
    await expect(rotateWebhookSecret(deps, platform, merchantRef)).rejects.toBeInstanceOf(NotFoundError);
    await expect(rotateWebhookSecret(deps, platform, 'no-such-merchant')).rejects.toBeInstanceOf(NotFoundError);
  });
});

/**
 * A store whose first `get` of each caller waits until `parties` callers have read: they all
 * read the same version, so all but one lose their conditional write and must retry.
 */
function racingStore(parties: number) {
  let waiting: (() => void)[] = [];
  let raced = false;
  const writes = { attempted: 0, lost: 0 };
  const store: WebhookConfigStore = {
    async get(merchantRef, options) {
      const config = await webhookConfigRepository.get(merchantRef, options);
      if (!raced) {
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          if (waiting.length === parties) {
            raced = true;
            for (const release of waiting) release();
            waiting = [];
          }
        });
      }
      return config;
    },
    async put(config, expectedVersion) {
      writes.attempted++;
      try {
        await webhookConfigRepository.put(config, expectedVersion);
      } catch (error) {
        if (error instanceof StoreConflictError) writes.lost++;
        throw error;
      }
    },
  };
  return { store, writes };
}

describe('concurrent writes lose nothing', () => {
  it('two concurrent rotations: both new secrets are kept, the original too', async () => {
    const { merchantRef, first } = await configured(Date.now());
    const { store, writes } = racingStore(2);
    const { deps } = depsAt(Date.now(), store);
    const [a, b] = await Promise.all([rotateWebhookSecret(deps, platform, merchantRef), rotateWebhookSecret(deps, platform, merchantRef)]);
    expect(writes.lost).toBe(1); // the race did happen
    const secrets = await live(deps, merchantRef, Date.now());
    expect(secrets).toHaveLength(3);
    expect(new Set(secrets)).toEqual(new Set([a.signingSecret, b.signingSecret, first]));
    // The current secret is one that a caller was shown; the other caller's stays valid 24 h.
    expect([a.signingSecret, b.signingSecret]).toContain(secrets[0]);
    const stored = (await webhookConfigRepository.get(merchantRef, { consistent: true }))!;
    expect(stored.version).toBe(3);
    expect(stored.secrets[0]!.expiresAt).toBeUndefined();
    expect(stored.secrets.slice(1).every((s) => s.expiresAt !== undefined)).toBe(true);
  });

  it('two concurrent first PUTs: one creates and shows the secret, the other updates and shows none', async () => {
    const { merchantRef } = await seedMerchant();
    const { store, writes } = racingStore(2);
    const { deps } = depsAt(Date.now(), store);
    const answers = await Promise.all([
      putWebhookConfig(deps, platform, merchantRef, { url: 'http://127.0.0.1:1/a' }),
      putWebhookConfig(deps, platform, merchantRef, { url: 'http://127.0.0.1:1/b' }),
    ]);
    expect(writes.lost).toBe(1);
    const shown = answers.flatMap((a) => ('signingSecret' in a && a.signingSecret ? [a.signingSecret] : []));
    expect(shown).toHaveLength(1);
    const stored = await signingSecrets(deps, merchantRef, Date.now());
    expect(stored!.secrets).toEqual(shown);
    expect(['http://127.0.0.1:1/a', 'http://127.0.0.1:1/b']).toContain(stored!.url);
  });

  it('a PUT racing a rotation: the new URL and the rotated secrets both survive', async () => {
    const { merchantRef, first } = await configured(Date.now());
    const { store } = racingStore(2);
    const { deps } = depsAt(Date.now(), store);
    const [, rotated] = await Promise.all([
      putWebhookConfig(deps, platform, merchantRef, { url: 'http://127.0.0.1:1/new' }),
      rotateWebhookSecret(deps, platform, merchantRef),
    ]);
    expect(await signingSecrets(deps, merchantRef, Date.now())).toMatchObject({ url: 'http://127.0.0.1:1/new', secrets: [rotated.signingSecret, first] });
  });

  it('endless contention ends in a retryable 503, not a lost write', async () => {
    const { merchantRef } = await configured(Date.now());
    const store: WebhookConfigStore = {
      get: (ref, options) => webhookConfigRepository.get(ref, options),
      put: async () => Promise.reject(new StoreConflictError(undefined)),
    };
    const { deps } = depsAt(Date.now(), store);
    await expect(rotateWebhookSecret(deps, platform, merchantRef)).rejects.toBeInstanceOf(DependencyUnavailableError);
    await expect(putWebhookConfig(deps, platform, merchantRef, { url: HOOK })).rejects.toBeInstanceOf(DependencyUnavailableError);
  });

  it('reads that precede a write, and the delivery worker’s read, are strongly consistent', async () => {
    const { merchantRef } = await configured(Date.now());
    const reads: (boolean | undefined)[] = [];
    const store: WebhookConfigStore = {
      get: (ref, options) => (reads.push(options?.consistent), webhookConfigRepository.get(ref, options)),
      put: (config, version) => webhookConfigRepository.put(config as WebhookConfig, version),
    };
    const { deps } = depsAt(Date.now(), store);
    await putWebhookConfig(deps, platform, merchantRef, { url: HOOK });
    await rotateWebhookSecret(deps, platform, merchantRef);
    await signingSecrets(deps, merchantRef, Date.now());
    await getWebhookConfig(deps, platform, merchantRef);
    expect(reads).toEqual([true, true, true, true]);
  });
});

describe('signingSecrets (for the delivery worker)', () => {
  it('is undefined without a configuration or a merchant, and says whether loopback is allowed', async () => {
    const { deps } = depsAt(Date.now());
    expect(await signingSecrets(deps, (await seedMerchant()).merchantRef, Date.now())).toBeUndefined();
    expect(await signingSecrets(deps, 'no-such-merchant', Date.now())).toBeUndefined();
    const lookup = async () => [{ address: '93.184.216.34', family: 4 as const }];
    const { merchantRef } = await seedMerchant({ environment: 'production' });
    await putWebhookConfig({ ...deps, urls: dnsWebhookUrlCheck({ lookup }) }, platform, merchantRef, { url: 'https://hooks.merchant.test/in' });
    expect(await signingSecrets(deps, merchantRef, Date.now())).toMatchObject({
      url: 'https://hooks.merchant.test/in',
      allowLoopback: false,
      secrets: [expect.stringMatching(/^whsec_/)],
    });
  });
});

describe('URL check with DNS', () => {
  it('refuses a host that resolves to a private address (any of them), with the url field named', async () => {
    const { merchantRef } = await seedMerchant({ environment: 'production' });
    const { deps } = depsAt(Date.now());
    for (const addresses of [
      [{ address: '10.0.0.7', family: 4 as const }],
      [
        { address: '93.184.216.34', family: 4 as const },
        { address: 'fd00::1', family: 6 as const },
      ],
    ]) {
      const error = await putWebhookConfig({ ...deps, urls: dnsWebhookUrlCheck({ lookup: async () => addresses }) }, platform, merchantRef, {
        url: 'https://hooks.merchant.test/in',
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect((error as InvalidRequestError).errors).toEqual([{ path: 'url', message: expect.any(String) }]);
      expect(JSON.stringify((error as InvalidRequestError).errors)).not.toMatch(/10\.0\.0\.7|fd00/);
    }
    expect(await webhookConfigRepository.get(merchantRef, { consistent: true })).toBeUndefined();
  });

  it('a KMS outage creates nothing: 503, and a retry then succeeds', async () => {
    const { merchantRef } = await seedMerchant();
    const { deps } = depsAt(Date.now());
    const { KMSClient } = await import('@aws-sdk/client-kms');
    const down = new KMSClient({
      endpoint: 'http://127.0.0.1:9',
      region: 'us-east-1',
      maxAttempts: 1,
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    const broken = { ...deps, sealer: new KmsSecretSealer(down, process.env.WEBHOOK_SECRETS_KEY_ID!) };
    await expect(putWebhookConfig(broken, platform, merchantRef, { url: HOOK })).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(await webhookConfigRepository.get(merchantRef, { consistent: true })).toBeUndefined();
    const { signingSecret } = await putWebhookConfig(deps, platform, merchantRef, { url: HOOK });
    expect(signingSecret).toMatch(/^whsec_/);
    await expect(rotateWebhookSecret(broken, platform, merchantRef)).rejects.toBeInstanceOf(DependencyUnavailableError);
    await expect(signingSecrets(broken, merchantRef, Date.now())).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(await live(deps, merchantRef, Date.now())).toEqual([signingSecret]);
  });
});
