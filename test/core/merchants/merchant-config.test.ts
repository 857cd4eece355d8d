import { describe, expect, it } from 'vitest';
import { NotFoundError, OnboardingConflictError } from '../../../lib/core/errors.js';
import { onboardMerchant, readMerchantConfig, type OnboardingInput } from '../../../lib/core/merchants/merchant-config.js';
import { coreWorld, MERCHANT, sessionPrincipal, TENANT, tenantPrincipal, type CoreWorld } from '../support/world.js';

/** SPEC 4.7 onboarding and 4.1 read (lib/core/merchants/merchant-config.ts): no transactions, yet no outlet ever has two owners. */
const onboarding = (outlets: string[], overrides: Partial<OnboardingInput> = {}): OnboardingInput => ({
  tenantRef: TENANT,
  dpaId: 'dpa-2',
  dpaClientId: 'client-2',
  dpaName: 'Second Shop',
  cardBrands: ['visa'],
  locale: 'en_AE',
  environment: 'sandbox',
  threeDsPolicy: 'always',
  outlets,
  redirectOrigins: ['https://second.example'],
  ...overrides,
});
const deps = (world: CoreWorld) => ({ config: world.stores.config, keys: world.keys, now: world.clock.now });

describe('onboarding a merchant', () => {
  it('stores the merchant and claims each outlet for it; answers the view with effective enablement and the current key', async () => {
    const world = await coreWorld();
    const view = await onboardMerchant(deps(world), 'm-2', onboarding(['o-2a', 'o-2b']));
    expect(view).toMatchObject({
      merchantRef: 'm-2',
      clickToPayEnabled: true,
      directWalletEnabled: true,
      encryptionKeyId: await world.keys.currentKid(),
      threeDsPolicy: 'always',
    });
    expect(await world.stores.config.getOutlet('o-2a')).toEqual({ outletId: 'o-2a', merchantRef: 'm-2', tenantRef: TENANT });
  });

  it('re-onboarding releases the outlets no longer listed, and only those', async () => {
    const world = await coreWorld();
    await onboardMerchant(deps(world), 'm-2', onboarding(['o-2a', 'o-2b']));
    await onboardMerchant(deps(world), 'm-2', onboarding(['o-2b', 'o-2c']));
    expect(await world.stores.config.getOutlet('o-2a')).toBeUndefined();
    expect(await world.stores.config.getOutlet('o-2c')).toMatchObject({ merchantRef: 'm-2' });
  });

  it('an outlet owned by another merchant, or a merchant of another tenant, is refused (409) before anything is written', async () => {
    const world = await coreWorld();
    await expect(onboardMerchant(deps(world), 'm-2', onboarding(['o-core']))).rejects.toBeInstanceOf(OnboardingConflictError);
    expect(await world.stores.config.getMerchant('m-2')).toBeUndefined();
    await expect(onboardMerchant(deps(world), MERCHANT, onboarding([], { tenantRef: 'another-tenant' }))).rejects.toBeInstanceOf(OnboardingConflictError);
  });

  it('two merchants claiming one free outlet at once: the conditional claim lets one own it, the other is refused (409)', async () => {
    const world = await coreWorld();
    const results = await Promise.allSettled([
      onboardMerchant(deps(world), 'm-a', onboarding(['o-shared'])),
      onboardMerchant(deps(world), 'm-b', onboarding(['o-shared'])),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const owner = (await world.stores.config.getOutlet('o-shared'))!.merchantRef;
    expect(results[owner === 'm-a' ? 1 : 0]).toMatchObject({ status: 'rejected', reason: expect.any(OnboardingConflictError) });
  });
});

describe('two merchants racing for one outlet', () => {
  // Outlets are claimed before the merchant is written, and the loser gives its claims back: a
  // merchant record never lists an outlet another merchant owns, so a token narrowed to that
  // outlet can never "cover the whole" losing merchant (coversWholeMerchant).
  it('the loser is not left stored listing the outlet, and the winner owns it', async () => {
    const world = await coreWorld();
    await Promise.allSettled([onboardMerchant(deps(world), 'm-a', onboarding(['o-shared'])), onboardMerchant(deps(world), 'm-b', onboarding(['o-shared']))]);
    const owner = (await world.stores.config.getOutlet('o-shared'))!.merchantRef;
    const loser = owner === 'm-a' ? 'm-b' : 'm-a';
    expect((await world.stores.config.getMerchant(loser))?.outlets ?? []).not.toContain('o-shared');
    expect((await world.stores.config.getMerchant(owner))?.outlets).toContain('o-shared');
  });
});

describe('reading a merchant’s configuration (4.1)', () => {
  it('a hosted session reads it without the merchant’s redirect origins; other tenants get 404', async () => {
    const world = await coreWorld();
    const session = sessionPrincipal({ orderRef: 'x', outletId: 'o-core', merchantRef: MERCHANT, tenantRef: TENANT });
    expect(await readMerchantConfig(deps(world), session, MERCHANT)).not.toHaveProperty('redirectOrigins');
    expect(await readMerchantConfig(deps(world), tenantPrincipal(), MERCHANT)).toMatchObject({ redirectOrigins: ['https://shop.example'] });
    await expect(readMerchantConfig(deps(world), tenantPrincipal({ tenantRef: 'another' }), MERCHANT)).rejects.toBeInstanceOf(NotFoundError);
  });
});
