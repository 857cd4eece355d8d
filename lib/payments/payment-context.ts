import type { Principal } from '../auth/principal.js';
import type { Order } from '../domain/order.js';
import type { Payment } from '../domain/payment.js';
import { NotFoundError } from '../errors.js';
import type { MerchantStanding } from '../services/enablement.js';
import { orderInScope } from '../services/order-scope.js';
import type { PaymentDeps } from './deps.js';

/** The payment, its order, and the merchant's standing (SPEC 4.3 step 7 reads all three). */
export interface PaymentContext extends MerchantStanding {
  order: Order;
  payment: Payment;
}

/**
 * The payment under that outlet and order, in the caller's scope (404 otherwise, before any
 * crypto: the endpoint is no oracle for other tenants' payments), with its merchant and the
 * effective enablement (cached in the warm function for CONFIG_CACHE_SECONDS: standing-cache.ts).
 */
export async function loadPaymentContext(
  deps: Pick<PaymentDeps, 'orders' | 'standing'>,
  principal: Principal,
  ids: { outletId: string; orderRef: string; paymentRef: string },
): Promise<PaymentContext> {
  const { order, payments } = await orderInScope(deps, principal, ids.outletId, ids.orderRef);
  const payment = payments.find((candidate) => candidate.paymentRef === ids.paymentRef);
  if (!payment) throw new NotFoundError();
  return { order, payment, ...(await deps.standing.load(order.tenantRef, order.merchantRef)) };
}
