import type { PaymentRepresentation } from '../ports/representation.js';
import { StoreConflictError } from '../ports/store-conflict.js';
import type { Principal } from '../auth/principal.js';
import type { OrderView } from '../domain/order.js';
import { attemptOf, inAttemptOrder, nextPaymentRef, retryRefusal } from '../domain/payment-retry.js';
import type { Payment } from '../domain/payment.js';
import { PaymentStateConflictError } from '../errors.js';

import { assertLinkNotCancelled, type LinkReader } from '../links/link-cancellation.js';
import { orderInScope } from './order-scope.js';
import { orderView } from './orders.js';
import type { ConfigStore } from '../ports/config-store.js';
import type { OrderStore } from '../ports/order-store.js';

export interface PaymentRetryDeps {
  config: ConfigStore;
  orders: OrderStore;
  links: LinkReader;
  now: () => number;
  represent: PaymentRepresentation;
}

/**
 * POST …/orders/{orderRef}/payments: a new STARTED payment on an order whose payments all
 * failed, the latest with a retryable code (lib/core/domain/payment-retry.ts), so the shopper can
 * try another card. 409 PAYMENT_STATE_CONFLICT otherwise (also once the order's payment link was
 * cancelled), and for the loser of two concurrent
 * retries (both derive the same paymentRef; the put is conditional). Answers the order, the
 * new payment last; the order's state follows it (STARTED again).
 */
export async function retryPayment(deps: PaymentRetryDeps, principal: Principal, outletId: string, orderRef: string): Promise<OrderView> {
  const { order, payments } = await orderInScope(deps, principal, outletId, orderRef);
  const refusal = retryRefusal(payments);
  if (refusal) throw new PaymentStateConflictError(refusal);
  await assertLinkNotCancelled(deps.links, order);
  const previous = inAttemptOrder(payments).at(-1)!;
  const createdAt = new Date(deps.now()).toISOString();
  const payment: Payment = {
    paymentRef: nextPaymentRef(previous),
    orderRef,
    outletId,
    state: 'STARTED',
    amount: order.amount,
    attempt: attemptOf(previous) + 1,
    version: 1,
    createdAt,
    updatedAt: createdAt,
  };
  try {
    await deps.orders.addPayment(payment);
  } catch (error) {
    if (error instanceof StoreConflictError)
      throw new PaymentStateConflictError('Another request already started a new payment for this order.', { cause: error });
    throw error;
  }
  return orderView(deps, order, [...payments, payment]);
}
