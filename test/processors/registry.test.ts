import { describe, expect, it, vi } from 'vitest';
import type { MerchantConfig } from '../../lib/core/domain/merchant.js';
import { DependencyUnavailableError } from '../../lib/core/errors.js';
import { AcquirerNotReachedError, type Authorizer } from '../../lib/core/ports/authorizer.js';
import { merchantAuthorizers } from '../../lib/composition/processors/registry.js';

/** lib/composition/processors/registry.ts: which authorizer acts for each merchant, built once per TTL. */
const authorizer = (label: string) => ({ label }) as unknown as Authorizer;
const sandbox = authorizer('sandbox');
const none = authorizer('none');
const merchant = (extra: Partial<MerchantConfig> = {}): MerchantConfig => ({
  merchantRef: 'm-1',
  tenantRef: 't-1',
  dpaId: 'd',
  dpaClientId: 'c',
  dpaName: 'Shop',
  cardBrands: ['visa'],
  locale: 'en_AE',
  environment: 'production',
  threeDsPolicy: 'risk-based',
  outlets: [],
  updatedAt: '2026-11-25T00:00:00.000Z',
  ...extra,
});
const adyen = { name: 'adyen', account: 'ShopECOM', credentialsArn: 'arn:a', notificationHmacKeyArn: 'arn:h' };

function registry(factory = vi.fn(async () => authorizer('adyen')), now = () => 0) {
  return {
    source: merchantAuthorizers({ sandbox, withoutProcessor: none, sandboxForProduction: none, factories: { adyen: factory }, ttlMs: 1000, now }),
    factory,
  };
}

describe('merchant authorizers', () => {
  it('a sandbox merchant gets the sandbox acquirer whatever its processor says; a production one never does by default', async () => {
    const { source, factory } = registry();
    expect(await source.for(merchant({ environment: 'sandbox', processor: adyen }))).toBe(sandbox);
    expect(await source.for(merchant())).toBe(none); // onboarded before `processor`
    expect(await source.for(undefined)).toBe(none);
    expect(await source.for(merchant({ processor: { name: 'sandbox' } }))).toBe(none);
    expect(factory).not.toHaveBeenCalled();
  });

  it('builds a merchant’s adapter once per TTL, and again when its configuration changes', async () => {
    let now = 0;
    const { source, factory } = registry(undefined, () => now);
    const first = await source.for(merchant({ processor: adyen }));
    expect(await source.for(merchant({ processor: adyen }))).toBe(first);
    expect(factory).toHaveBeenCalledTimes(1);
    await source.for(merchant({ processor: { ...adyen, credentialsArn: 'arn:rotated' } }));
    expect(factory).toHaveBeenCalledTimes(2);
    now = 1000;
    await source.for(merchant({ processor: adyen }));
    expect(factory).toHaveBeenCalledTimes(3);
  });

  it('an adapter that cannot be built fails as not reached (502, nothing held) and is tried again next time', async () => {
    const factory = vi.fn(async (): Promise<Authorizer> => {
      throw new Error('the secret is not {apiKey}');
    });
    const { source } = registry(factory);
    await expect(source.for(merchant({ processor: adyen }))).rejects.toBeInstanceOf(AcquirerNotReachedError);
    await expect(source.for(merchant({ processor: adyen }))).rejects.toBeInstanceOf(AcquirerNotReachedError);
    expect(factory).toHaveBeenCalledTimes(2);
  });

  it('a secret store that does not answer stays DEPENDENCY_UNAVAILABLE (503, Retry-After)', async () => {
    const { source } = registry(
      vi.fn(async (): Promise<Authorizer> => {
        throw new DependencyUnavailableError();
      }),
    );
    await expect(source.for(merchant({ processor: adyen }))).rejects.toBeInstanceOf(DependencyUnavailableError);
  });

  it('a processor without an adapter is not reached', async () => {
    const { source } = registry();
    await expect(source.for(merchant({ processor: { name: 'worldpay', account: 'x' } }))).rejects.toBeInstanceOf(AcquirerNotReachedError);
  });
});
