import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidRequestError, PlatformNotEnabledError } from '../../../lib/core/errors.js';
import { readPaymentMethods, upsertPaymentMethods } from '../../../lib/core/merchants/payment-methods.js';
import type { PaymentMethod } from '../../../lib/core/domain/payment-methods.js';
import { createMemoryStores } from '../../../lib/adapters/memory/memory-stores.js';
import type { ConfigStore } from '../../../lib/core/ports/config-store.js';
import { frozenClock } from '../support/clock.js';

/** SPEC 4.5/4.6 (lib/core/merchants/payment-methods.ts): an idempotent upsert, read-merge-write under an optimistic version. */
const platform = { level: 'platform' } as const;
const tenant = { level: 'tenant', tenantRef: 't-1' } as const;

function setup() {
  const stores = createMemoryStores();
  return { stores, deps: { config: stores.config, now: frozenClock().now } };
}

describe('payment methods', () => {
  it('never configured reads as everything off; an upsert changes the methods it lists and keeps the others', async () => {
    const { deps } = setup();
    expect((await readPaymentMethods(deps.config, platform)).paymentMethods).toEqual({ CLICK_TO_PAY: { enabled: false }, DIRECT_WALLET: { enabled: false } });
    await upsertPaymentMethods(deps, platform, { CLICK_TO_PAY: { enabled: true } });
    await upsertPaymentMethods(deps, platform, { DIRECT_WALLET: { enabled: true } });
    expect((await readPaymentMethods(deps.config, platform)).paymentMethods).toEqual({ CLICK_TO_PAY: { enabled: true }, DIRECT_WALLET: { enabled: true } });
  });

  it('DIRECT_WALLET only together with CLICK_TO_PAY (400); a tenant cannot switch on what the platform has off (403)', async () => {
    const { deps } = setup();
    await expect(upsertPaymentMethods(deps, platform, { DIRECT_WALLET: { enabled: true } })).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(upsertPaymentMethods(deps, tenant, { CLICK_TO_PAY: { enabled: true } })).rejects.toBeInstanceOf(PlatformNotEnabledError);
    await upsertPaymentMethods(deps, platform, { CLICK_TO_PAY: { enabled: true } });
    expect((await upsertPaymentMethods(deps, tenant, { CLICK_TO_PAY: { enabled: true } })).paymentMethods.CLICK_TO_PAY).toEqual({ enabled: true });
  });

  it('any set of concurrent upserts of different methods all land: a lost optimistic write re-reads and re-applies, nothing is overwritten', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.subarray<PaymentMethod>(['CLICK_TO_PAY', 'DIRECT_WALLET'], { minLength: 1 }), async (s, switchedOff) => {
        const { stores, deps } = setup();
        await upsertPaymentMethods(deps, platform, { CLICK_TO_PAY: { enabled: true }, DIRECT_WALLET: { enabled: true } });
        const slow = Object.create(stores.config) as ConfigStore;
        slow.getPlatformMethods = () => s.schedule(stores.config.getPlatformMethods());
        slow.putPlatformMethods = async (...args) => {
          await s.schedule(Promise.resolve());
          return stores.config.putPlatformMethods(...args);
        };
        // Switching DIRECT_WALLET off alone is always valid; switching CLICK_TO_PAY off takes DIRECT_WALLET with it.
        const updates = switchedOff.map((method) =>
          upsertPaymentMethods(
            { config: slow, now: deps.now },
            platform,
            method === 'CLICK_TO_PAY' ? { CLICK_TO_PAY: { enabled: false }, DIRECT_WALLET: { enabled: false } } : { DIRECT_WALLET: { enabled: false } },
          ),
        );
        await s.waitFor(Promise.all(updates));
        const stored = (await stores.config.getPlatformMethods())!;
        for (const method of switchedOff) expect(stored.paymentMethods[method]).toEqual({ enabled: false });
        expect(stored.version).toBe(1 + switchedOff.length);
      }),
      { numRuns: 50 },
    );
  });
});
