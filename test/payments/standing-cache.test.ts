import { afterEach, describe, expect, it, vi } from 'vitest';
import { configRepository } from '../../lib/composition/core.js';
import { paymentDeps } from '../../lib/composition/payments.js';
import { CachedStanding } from '../../lib/core/merchants/standing-cache.js';
import { tokenData } from '../support/direct-wallet.js';
import { payDirectly } from '../support/payments.js';
import { seedWorld, setTenant } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

const original = paymentDeps.standing;
afterEach(() => {
  paymentDeps.standing = original;
  vi.restoreAllMocks();
});

describe('the merchant standing cache of the payment functions (CONFIG_CACHE_SECONDS)', () => {
  it('serves warm reads from memory; enablement switched off takes effect within the bound', async () => {
    let clock = Date.now();
    const cache = new CachedStanding(configRepository, 10_000, () => clock);
    const w = await seedWorld({}, { directWallet: true });
    const reads = vi.spyOn(configRepository, 'getTenantMethods');
    expect((await cache.load(w.tenantRef, w.merchantRef)).enablement.clickToPay).toBe(true);
    await setTenant(w.tenantRef, { CLICK_TO_PAY: { enabled: false }, DIRECT_WALLET: { enabled: false } });
    reads.mockClear();
    clock += 9_999;
    expect((await cache.load(w.tenantRef, w.merchantRef)).enablement.clickToPay).toBe(true); // stale, within 10 s
    expect(reads).not.toHaveBeenCalled();
    clock += 1;
    expect((await cache.load(w.tenantRef, w.merchantRef)).enablement.clickToPay).toBe(false);
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('switched off, a payment is refused at the latest one bound later (403 CLICK_TO_PAY_NOT_ENABLED)', async () => {
    let clock = Date.now();
    paymentDeps.standing = new CachedStanding(configRepository, 10_000, () => clock);
    const token = await platformToken();
    const w = await seedWorld({}, { directWallet: true });
    await paymentDeps.standing.load(w.tenantRef, w.merchantRef); // warm
    await setTenant(w.tenantRef, { CLICK_TO_PAY: { enabled: false }, DIRECT_WALLET: { enabled: false } });
    clock += 10_001;
    const refused = await payDirectly(w, token, tokenData());
    expect([refused.status, refused.body.code]).toEqual([403, 'DIRECT_WALLET_NOT_ENABLED']);
  });

  it('shares one read between concurrent misses and never caches a failed read', async () => {
    const cache = new CachedStanding(configRepository, 10_000, Date.now);
    const w = await seedWorld();
    const merchantReads = vi.spyOn(configRepository, 'getMerchant');
    await Promise.all(Array.from({ length: 10 }, () => cache.load(w.tenantRef, w.merchantRef)));
    expect(merchantReads).toHaveBeenCalledTimes(1);
    const other = await seedWorld();
    merchantReads.mockRejectedValueOnce(new Error('DynamoDB unavailable'));
    await expect(cache.load(other.tenantRef, other.merchantRef)).rejects.toThrow('unavailable');
    expect((await cache.load(other.tenantRef, other.merchantRef)).merchant?.merchantRef).toBe(other.merchantRef);
  });

  it('with 0 s reads every time', async () => {
    const cache = new CachedStanding(configRepository, 0, Date.now);
    const w = await seedWorld();
    const merchantReads = vi.spyOn(configRepository, 'getMerchant');
    await cache.load(w.tenantRef, w.merchantRef);
    await cache.load(w.tenantRef, w.merchantRef);
    expect(merchantReads).toHaveBeenCalledTimes(2);
  });
});
