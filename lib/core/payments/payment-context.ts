import type { Principal } from '../auth/principal.js';
import type { Order } from '../domain/order.js';
import type { Payment } from '../domain/payment.js';
import { NotFoundError } from '../errors.js';
import type { MerchantStanding } from '../merchants/enablement.js';
import { orderInScope } from '../orders/order-scope.js';

import type { PaymentDeps } from './deps.js';
import type { PaymentReadAhead } from '../ports/order-store.js';

/** The payment, its order, and the merchant's standing (SPEC 4.3 step 7 reads all three). */
export interface PaymentContext extends MerchantStanding {
  order: Order;
  payment: Payment;
}

/**
 * The payment under that outlet and order, in the caller's scope (404 otherwise, before any
 * crypto: the endpoint is no oracle for other tenants' payments), with its merchant and the
 * effective enablement (cached in the warm function for CONFIG_CACHE_SECONDS: standing-cache.ts).
 * With `readAhead` (the order item and this payment, read with the session) nothing is read again.
 */
export async function loadPaymentContext(
  deps: Pick<PaymentDeps, 'orders' | 'standing'>,
  principal: Principal,
  ids: { outletId: string; orderRef: string; paymentRef: string },
  readAhead?: PaymentReadAhead,
): Promise<PaymentContext> {
  // Read with the hosted session, moments ago and strongly consistent: the same read, made once.
  const already = readAhead?.orderRef === ids.orderRef && readAhead.paymentRef === ids.paymentRef ? readAhead : undefined;
  const { order, payments } = await orderInScope(deps, principal, ids.outletId, ids.orderRef, already && (async () => already.found));
  const payment = payments.find((candidate) => candidate.paymentRef === ids.paymentRef);
  if (!payment) throw new NotFoundError();
  return { order, payment, ...(await deps.standing.load(order.tenantRef, order.merchantRef)) };
}
