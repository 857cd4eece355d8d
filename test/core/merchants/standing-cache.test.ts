import { describe, expect, it } from 'vitest';
import { createMemoryStores } from '../../../lib/adapters/memory/memory-stores.js';
import { CachedStanding } from '../../../lib/core/merchants/standing-cache.js';
import type { ConfigStore } from '../../../lib/core/ports/config-store.js';
import { frozenClock } from '../support/clock.js';

/**
 * The merchant's standing cached in a warm function (lib/core/merchants/standing-cache.ts): the
 * TTL is the staleness contract — a switch turned off takes effect within it, never later.
 */
async function setup() {
  const stores = createMemoryStores();
  const clock = frozenClock();
  await stores.config.putPlatformMethods({ paymentMethods: { CLICK_TO_PAY: { enabled: true } }, version: 1 }, 0);
  await stores.config.putTenantMethods('t', { paymentMethods: { CLICK_TO_PAY: { enabled: true } }, version: 1 }, 0);
  await stores.config.putMerchant({
    merchantRef: 'm',
    tenantRef: 't',
    dpaId: 'd',
    dpaClientId: 'c',
    dpaName: 'n',
    cardBrands: ['visa'],
    locale: 'en',
    environment: 'sandbox',
    threeDsPolicy: 'never',
    outlets: [],
    updatedAt: '2026-01-01T00:00:00.000Z',
  });
  let reads = 0;
  const counting = Object.create(stores.config) as ConfigStore;
  counting.getMerchant = (ref) => {
    reads++;
    return stores.config.getMerchant(ref);
  };
  return { stores, clock, counting, reads: () => reads };
}

describe('the cached standing', () => {
  it('a switch turned off is seen once the TTL has passed, and served from the cache until then', async () => {
    const { stores, clock, counting, reads } = await setup();
    const cache = new CachedStanding(counting, 60_000, clock.now);
    expect((await cache.load('t', 'm')).enablement.clickToPay).toBe(true);
    await stores.config.putTenantMethods('t', { paymentMethods: { CLICK_TO_PAY: { enabled: false } }, version: 2 }, 1);
    clock.advance(59_999);
    expect((await cache.load('t', 'm')).enablement.clickToPay).toBe(true);
    expect(reads()).toBe(1);
    clock.advance(1);
    expect((await cache.load('t', 'm')).enablement.clickToPay).toBe(false);
  });

  it('concurrent misses share one read; a failed read is not cached', async () => {
    const { clock, counting, reads } = await setup();
    const cache = new CachedStanding(counting, 60_000, clock.now);
    await Promise.all([cache.load('t', 'm'), cache.load('t', 'm'), cache.load('t', 'm')]);
    expect(reads()).toBe(1);
    const failing = Object.create(counting) as ConfigStore;
    let fail = true;
    failing.getMerchant = (ref) => (fail ? Promise.reject(new Error('DynamoDB down (fake)')) : counting.getMerchant(ref));
    const fragile = new CachedStanding(failing, 60_000, clock.now);
    await expect(fragile.load('t', 'm')).rejects.toThrow('DynamoDB down');
    fail = false;
    expect((await fragile.load('t', 'm')).merchant?.merchantRef).toBe('m');
  });

  it('a TTL of 0 reads every time', async () => {
    const { clock, counting, reads } = await setup();
    const cache = new CachedStanding(counting, 0, clock.now);
    await cache.load('t', 'm');
    await cache.load('t', 'm');
    expect(reads()).toBe(2);
  });
});
