import { toPaymentResource } from '../../lib/http/resources/payment-resource.js';
/**
 * Seeds the demo platform, tenant, merchant and outlet through the same use cases the API
 * runs (idempotent: a restart finds them and changes nothing), then opens a fresh demo
 * order with a hosted session so the banner can print a checkout link that works now, and a
 * fresh demo payment link (7 days) next to it.
 * Imported only after the local stack has exported its environment.
 */
export const DEMO = {
  tenantRef: 'demo-tenant',
  merchantRef: 'demo-merchant',
  outletId: 'demo-outlet',
  /** Where the demo merchant's return and cancel URLs may point (docs/integrating/hosted-page.md). */
  redirectOrigins: ['https://shop.example.com'],
} as const;

export interface DemoWorld {
  tenantRef: string;
  merchantRef: string;
  outletId: string;
  orderRef: string;
  checkoutUrl: string;
  /** A demo payment link (SPEC 4.14): {base_url}/pay/{linkRef}. */
  paymentLinkUrl: string;
}

export async function seedDemo(): Promise<DemoWorld> {
  const { configRepository, orderRepository, sessionRepository } = await import('../../lib/composition/core.js');
  const { paymentLinkRepository } = await import('../../lib/composition/payment-links.js');
  const { payloadKeyVault } = await import('../../lib/composition/keys.js');
  const { upsertPaymentMethods } = await import('../../lib/core/merchants/payment-methods.js');
  const { onboardMerchant } = await import('../../lib/core/merchants/merchant-config.js');
  const { createOrder } = await import('../../lib/core/orders/orders.js');
  const { createHostedSession } = await import('../../lib/core/orders/hosted-sessions.js');
  const { serviceConfig } = await import('../../lib/composition/config/service-config.js');
  const { paymentLinkDeps } = await import('../../lib/composition/payment-links.js');
  const { createPaymentLink } = await import('../../lib/core/links/payment-links.js');

  const on = { enabled: true };
  await upsertPaymentMethods({ config: configRepository, now: Date.now }, { level: 'platform' }, { CLICK_TO_PAY: on, DIRECT_WALLET: on });
  await upsertPaymentMethods(
    { config: configRepository, now: Date.now },
    { level: 'tenant', tenantRef: DEMO.tenantRef },
    { CLICK_TO_PAY: on, DIRECT_WALLET: on },
  );
  const existing = await configRepository.getMerchant(DEMO.merchantRef);
  if (!existing) {
    await onboardMerchant({ config: configRepository, keys: payloadKeyVault, now: Date.now }, DEMO.merchantRef, {
      tenantRef: DEMO.tenantRef,
      dpaId: 'demo-dpa-0001',
      dpaClientId: 'demo-dpa-client',
      dpaName: 'Demo Shop',
      cardBrands: ['visa', 'mastercard'],
      locale: 'en_AE',
      environment: 'sandbox',
      threeDsPolicy: 'risk-based',
      outlets: [DEMO.outletId],
      redirectOrigins: [...DEMO.redirectOrigins],
    });
  } else if (!existing.redirectOrigins?.length) {
    // A data directory from before the demo merchant had one: the return-URL recipes need it.
    const { merchantRef: _ref, updatedAt: _at, ...config } = existing;
    await onboardMerchant({ config: configRepository, keys: payloadKeyVault, now: Date.now }, DEMO.merchantRef, {
      ...config,
      redirectOrigins: [...DEMO.redirectOrigins],
    });
  }
  const seeder = { kind: 'platform', subject: 'local-seed', permissions: new Set<string>() } as const;
  const order = await createOrder({ config: configRepository, orders: orderRepository, now: Date.now, represent: toPaymentResource }, seeder, DEMO.outletId, {
    action: 'AUTH',
    amount: { currencyCode: 'AED', value: 14900 },
    merchantOrderReference: 'DEMO-ORDER',
  });
  const baseUrl = serviceConfig.PUBLIC_BASE_URL ?? 'http://localhost:3000';
  const session = await createHostedSession(
    {
      orders: orderRepository,
      config: configRepository,
      sessions: sessionRepository,
      links: paymentLinkRepository,
      ttlSeconds: serviceConfig.SESSION_TTL_SECONDS,
      now: Date.now,
    },
    seeder,
    DEMO.outletId,
    order.orderRef,
    baseUrl,
  );
  const link = await createPaymentLink(
    paymentLinkDeps,
    seeder,
    DEMO.outletId,
    {
      action: 'AUTH',
      amount: { currencyCode: 'AED', value: 7500 },
      description: 'Demo payment link',
      merchantOrderReference: 'DEMO-LINK',
    },
    baseUrl,
  );
  return { ...DEMO, orderRef: order.orderRef, checkoutUrl: session.checkoutUrl, paymentLinkUrl: link.url };
}
