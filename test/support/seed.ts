import { randomBytes } from 'node:crypto';
import { configRepository } from '../../lib/composition/core.js';
import { payloadKeyVault } from '../../lib/composition/keys.js';
import type { PaymentMethodSettings } from '../../lib/core/domain/payment-methods.js';
import type { MerchantConfig } from '../../lib/core/domain/merchant.js';
import { onboardMerchant } from '../../lib/core/merchants/merchant-config.js';
import { upsertPaymentMethods } from '../../lib/core/merchants/payment-methods.js';
import { toPaymentResource } from '../../lib/http/resources/payment-resource.js';

export const uniqueRef = (prefix: string): string => `${prefix}-${randomBytes(4).toString('hex')}`;

export function setPlatform(methods: PaymentMethodSettings) {
  return upsertPaymentMethods({ config: configRepository, now: Date.now }, { level: 'platform' }, methods);
}

export function setTenant(tenantRef: string, methods: PaymentMethodSettings) {
  return upsertPaymentMethods({ config: configRepository, now: Date.now }, { level: 'tenant', tenantRef }, methods);
}

export interface SeededMerchant {
  tenantRef: string;
  merchantRef: string;
  outletId: string;
  otherOutletId: string;
}

/** A tenant with Click to Pay on (platform too), one onboarded merchant with two outlets. */
export async function seedMerchant(overrides: Partial<MerchantConfig> = {}, options: { directWallet?: boolean } = {}): Promise<SeededMerchant> {
  const tenantRef = overrides.tenantRef ?? uniqueRef('t');
  const merchantRef = overrides.merchantRef ?? uniqueRef('m');
  const outletId = uniqueRef('o');
  const otherOutletId = uniqueRef('o');
  await setPlatform({ CLICK_TO_PAY: { enabled: true }, DIRECT_WALLET: { enabled: true } });
  await setTenant(tenantRef, { CLICK_TO_PAY: { enabled: true }, DIRECT_WALLET: { enabled: options.directWallet ?? false } });
  await onboardDemoMerchant(merchantRef, tenantRef, [outletId, otherOutletId], overrides);
  return { tenantRef, merchantRef, outletId, otherOutletId };
}

/** 4.7 onboarding of a sandbox "Demo Shop" with these outlets (again, for a merchant already seeded). */
export function onboardDemoMerchant(merchantRef: string, tenantRef: string, outlets: string[], overrides: Partial<MerchantConfig> = {}) {
  return onboardMerchant({ config: configRepository, keys: payloadKeyVault, now: Date.now }, merchantRef, {
    tenantRef,
    dpaId: 'dpa-demo',
    dpaClientId: 'dpa-client-demo',
    dpaName: 'Demo Shop',
    cardBrands: ['visa', 'mastercard'],
    locale: 'en_AE',
    environment: 'sandbox',
    threeDsPolicy: 'risk-based',
    outlets,
    ...overrides,
  });
}

/** A seeded merchant plus one order (and its payment) at the first outlet. */
export async function seedWorld(overrides: Partial<MerchantConfig> = {}, options: { directWallet?: boolean; amount?: number } = {}) {
  const merchant = await seedMerchant(overrides, options);
  const { createOrder } = await import('../../lib/core/orders/orders.js');
  const { orderRepository, sessionRepository } = await import('../../lib/composition/core.js');
  const order = await createOrder(
    {
      config: configRepository,
      orders: orderRepository,
      now: Date.now,
      represent: toPaymentResource,
      checkout: { sessions: sessionRepository, ttlSeconds: 600, now: Date.now, baseUrl: 'https://pay.test.example' },
    },
    { kind: 'platform', subject: 'seed', permissions: new Set() },
    merchant.outletId,
    { action: 'AUTH', amount: { currencyCode: 'AED', value: options.amount ?? 1000 } },
  );
  const payment = order.payments[0] as { paymentRef: string };
  return { ...merchant, orderRef: order.orderRef, paymentRef: payment.paymentRef };
}
