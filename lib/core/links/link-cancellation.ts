import type { Order } from '../domain/order.js';
import type { PaymentLink } from '../domain/payment-link.js';
import type { Payment } from '../domain/payment.js';
import { PaymentStateConflictError } from '../errors.js';

/** Reads a payment link (strongly consistent: a cancel that just landed is seen). */
export interface LinkReader {
  get(linkRef: string): Promise<Pick<PaymentLink, 'cancelledAt'> | undefined>;
}

/**
 * A cancelled payment link takes no money afterwards (SPEC 4.14): its order gets no new payment
 * (retry) and no payment of it starts, whatever session the shopper still holds. The payment
 * checks this after taking its lease, and the cancel checks the payments after its own write
 * (cancelPaymentLink), so when the two cross, at least one of them sees the other.
 */
export async function assertLinkNotCancelled(links: LinkReader, order: Pick<Order, 'linkRef'>): Promise<void> {
  if (!order.linkRef) return;
  const link = await links.get(order.linkRef);
  if (link?.cancelledAt) throw new PaymentStateConflictError('The payment link of this order was cancelled.');
}

/**
 * A payment of the link's order that a cancel must not cut short: in flight (its lease taken:
 * the acquirer may be answering) or already authorised. One waiting for 3DS is not: the shopper
 * may have walked away (nothing sweeps it), and its completion checks the link after its lease.
 */
export function paymentUnderWay(payments: readonly Pick<Payment, 'state'>[]): boolean {
  return payments.some((payment) => payment.state !== 'STARTED' && payment.state !== 'FAILED' && payment.state !== 'AWAIT_3DS');
}
