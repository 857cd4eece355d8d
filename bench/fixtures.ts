import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JWK } from 'jose';
import { buildSandboxCheckoutResponse } from '../lib/adapters/sandbox/checkout-response.js';
import { sandboxCard } from '../lib/adapters/sandbox/sandbox-cards.js';
import { orderDeps, paymentMethodsDeps } from '../lib/composition/core.js';
import { merchantConfigDeps } from '../lib/composition/merchants.js';

export interface PreparedPayment {
  outletId: string;
  orderRef: string;
  paymentRef: string;
  sessionToken: string;
  body: { checkoutResponse: Record<string, unknown> };
}

/** Orders, hosted sessions and checkout responses made before the clock starts. */
export async function preparePayments(count: number, dataDir: string, amountValue = 1000): Promise<PreparedPayment[]> {
  const { configRepository, orderRepository, sessionRepository } = await import('../lib/composition/core.js');
  const { paymentLinkRepository } = await import('../lib/composition/payment-links.js');
  const { payloadKeyVault } = await import('../lib/composition/keys.js');
  const { upsertPaymentMethods } = await import('../lib/core/merchants/payment-methods.js');
  const { onboardMerchant } = await import('../lib/core/merchants/merchant-config.js');
  const { createOrder } = await import('../lib/core/orders/orders.js');
  const { createHostedSession } = await import('../lib/core/orders/hosted-sessions.js');

  const on = { enabled: true };
  await upsertPaymentMethods(paymentMethodsDeps, { level: 'platform' }, { CLICK_TO_PAY: on });
  await upsertPaymentMethods(paymentMethodsDeps, { level: 'tenant', tenantRef: 'bench-tenant' }, { CLICK_TO_PAY: on });
  await onboardMerchant(merchantConfigDeps, 'bench-merchant', {
    tenantRef: 'bench-tenant',
    dpaId: 'bench',
    dpaClientId: 'bench',
    dpaName: 'Bench',
    cardBrands: ['visa'],
    locale: 'en_US',
    environment: 'sandbox',
    threeDsPolicy: 'risk-based',
    outlets: ['bench-outlet'],
  });
  const { keys } = JSON.parse(await readFile(join(dataDir, 'sandbox-network', 'private-jwks.json'), 'utf8')) as { keys: JWK[] };
  const signingKey = keys.find((key) => key.alg === 'RS256')!;
  const recipientKey = (await payloadKeyVault.publicKeys())[0]!.jwk;
  const seeder = { kind: 'platform', subject: 'bench', permissions: new Set<string>() } as const;
  const prepared: PreparedPayment[] = [];
  for (let i = 0; i < count; i++) {
    const order = await createOrder(orderDeps, seeder, 'bench-outlet', {
      action: 'AUTH',
      amount: { currencyCode: 'AED', value: amountValue },
    });
    const session = await createHostedSession(
      { orders: orderRepository, config: configRepository, sessions: sessionRepository, links: paymentLinkRepository, ttlSeconds: 3600, now: Date.now },
      seeder,
      'bench-outlet',
      order.orderRef,
      'http://bench',
    );
    const checkoutResponse = await buildSandboxCheckoutResponse({ card: sandboxCard('visa-classic'), signingKey, recipientKey, scheme: 'visa' });
    prepared.push({
      outletId: 'bench-outlet',
      orderRef: order.orderRef,
      paymentRef: (order.payments[0] as { paymentRef: string }).paymentRef,
      sessionToken: session.sessionToken,
      body: { checkoutResponse },
    });
  }
  return prepared;
}
