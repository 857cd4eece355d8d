import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { MerchantConfig } from '../../../lib/core/domain/merchant.js';
import type { WebhookConfig } from '../../../lib/core/domain/webhook-config.js';
import { conflictOf, engine, NOW, stores } from './support.js';

/** ConfigStore and WebhookConfigStore: optimistic versioned writes, owners that never change. */
const at = new Date(NOW).toISOString();
const methods = (version: number, on: boolean) => ({ paymentMethods: { CLICK_TO_PAY: { enabled: on } }, updatedAt: at, version });

function merchant(overrides: Partial<MerchantConfig> = {}): MerchantConfig {
  return {
    merchantRef: randomUUID(),
    tenantRef: 't-contract',
    dpaId: 'dpa',
    dpaClientId: 'client',
    dpaName: 'Shop',
    cardBrands: ['visa'],
    locale: 'en_AE',
    environment: 'sandbox',
    threeDsPolicy: 'risk-based',
    outlets: [],
    updatedAt: at,
    ...overrides,
  };
}

describe(`ConfigStore contract (${engine})`, () => {
  it('tenant payment methods: version 0 creates only if none exists; later writes replace exactly the version read', async () => {
    const s = await stores();
    const tenant = randomUUID();
    expect(await s.config.getTenantMethods(tenant)).toBeUndefined();
    await s.config.putTenantMethods(tenant, methods(1, true), 0);
    await conflictOf(s.config.putTenantMethods(tenant, methods(1, false), 0));
    await conflictOf(s.config.putTenantMethods(tenant, methods(3, false), 2));
    await s.config.putTenantMethods(tenant, methods(2, false), 1);
    expect(await s.config.getTenantMethods(tenant, { consistent: true })).toMatchObject(methods(2, false));
  });

  it('platform payment methods: the same optimistic versioning', async () => {
    const s = await stores();
    const current = await s.config.getPlatformMethods({ consistent: true });
    const version = current?.version ?? 0;
    await s.config.putPlatformMethods(methods(version + 1, true), version);
    await conflictOf(s.config.putPlatformMethods(methods(version + 2, false), version));
    expect(await s.config.getPlatformMethods({ consistent: true })).toEqual(methods(version + 1, true));
  });

  it('a merchant is created or replaced, but never moved to another tenant', async () => {
    const s = await stores();
    const m = merchant();
    await s.config.putMerchant(m);
    await s.config.putMerchant({ ...m, dpaName: 'Renamed' });
    await conflictOf(s.config.putMerchant({ ...m, tenantRef: 'another-tenant' }));
    expect(await s.config.getMerchant(m.merchantRef)).toEqual({ ...m, dpaName: 'Renamed' });
    expect(await s.config.getMerchant(randomUUID())).toBeUndefined();
  });

  it('an outlet is claimed by one merchant; another merchant’s claim is refused; only the owner releases it, anyone else’s release does nothing', async () => {
    const s = await stores();
    const outletId = randomUUID();
    await s.config.putOutlet({ outletId, merchantRef: 'm-a', tenantRef: 't' });
    await s.config.putOutlet({ outletId, merchantRef: 'm-a', tenantRef: 't' });
    await conflictOf(s.config.putOutlet({ outletId, merchantRef: 'm-b', tenantRef: 't' }));
    await s.config.deleteOutlet(outletId, 'm-b');
    expect(await s.config.getOutlet(outletId)).toEqual({ outletId, merchantRef: 'm-a', tenantRef: 't' });
    await s.config.deleteOutlet(outletId, 'm-a');
    expect(await s.config.getOutlet(outletId)).toBeUndefined();
    await s.config.deleteOutlet(outletId, 'm-a');
  });
});

describe(`WebhookConfigStore contract (${engine})`, () => {
  it('version 0 creates once; a write over a version someone else replaced is refused, so no write is lost', async () => {
    const s = await stores();
    const config: WebhookConfig = {
      merchantRef: randomUUID(),
      url: 'https://hooks.example/a',
      enabled: true,
      secrets: [{ sealed: 'sealed-1', createdAt: at }],
      createdAt: at,
      updatedAt: at,
      version: 1,
    };
    expect(await s.webhooks.get(config.merchantRef)).toBeUndefined();
    await s.webhooks.put(config, 0);
    await conflictOf(s.webhooks.put({ ...config, url: 'https://hooks.example/b' }, 0));
    await s.webhooks.put({ ...config, url: 'https://hooks.example/c', version: 2 }, 1);
    await conflictOf(s.webhooks.put({ ...config, url: 'https://hooks.example/d', version: 2 }, 1));
    expect(await s.webhooks.get(config.merchantRef, { consistent: true })).toEqual({ ...config, url: 'https://hooks.example/c', version: 2 });
  });
});
