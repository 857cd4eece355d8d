import type { Order } from '../domain/order.js';
import type { PaymentLink } from '../domain/payment-link.js';
import type { Payment } from '../domain/payment.js';
import { PaymentStateConflictError } from '../errors.js';
import { StoreConflictError } from '../ports/store-conflict.js';

/** Reads a payment link (strongly consistent: a cancel that just landed is seen). */
export interface LinkReader {
  get(linkRef: string): Promise<Pick<PaymentLink, 'cancelledAt'> | undefined>;
}

/** What a payment holding its lease needs: read the link, and make a cancel it saw final. */
export interface LinkGuard extends LinkReader {
  makeCancelFinal(linkRef: string, at: string): Promise<void>;
}

const CANCELLED = 'The payment link of this order was cancelled.';

/**
 * A cancelled payment link takes no money afterwards (SPEC 4.14): its order gets no new payment
 * (retry) and no hosted session, whatever session the shopper still holds. Read-only: for
 * callers that hold no payment lease (they start nothing the cancel has to wait for).
 */
export async function assertLinkNotCancelled(links: LinkReader, order: Pick<Order, 'linkRef'>): Promise<void> {
  if (!order.linkRef) return;
  const link = await links.get(order.linkRef);
  if (link?.cancelledAt) throw new PaymentStateConflictError(CANCELLED);
}

/**
 * The check of a payment that holds its lease (run-payment.ts), against a cancel crossing it.
 * The payment checks the link after taking its lease; the cancel checks the payments after its
 * own write (cancelPaymentLink), so at least one sees the other. When both do, one conditional
 * write on the link decides, so that each answer is true of the final state:
 * - the payment saw the cancel: it makes the cancel final (`cancelFinalAt`), then gives up (409
 *   "cancelled"); the cancel's undo, conditioned on no `cancelFinalAt`, then fails and the
 *   cancel answers 200 — the link stays CANCELLED and this payment took nothing;
 * - the cancel saw the payment first and undid itself (409 "under way"): the payment's final
 *   mark fails (nothing cancelled any more), so the payment goes on — the link stays ACTIVE
 *   until it is paid.
 * A failed write (DynamoDB) throws: the payment gives its lease back and answers 503; its retry
 * sees the link as it then is.
 */
export async function assertLinkOpenForPayment(links: LinkGuard, order: Pick<Order, 'linkRef'>, now: number): Promise<void> {
  if (!order.linkRef) return;
  const link = await links.get(order.linkRef);
  if (!link?.cancelledAt) return;
  try {
    await links.makeCancelFinal(order.linkRef, new Date(now).toISOString());
  } catch (error) {
    if (error instanceof StoreConflictError) return; // the cancel was undone meanwhile: it saw this lease
    throw error;
  }
  throw new PaymentStateConflictError(CANCELLED);
}

/**
 * A payment of the link's order that a cancel must not cut short: in flight (its lease taken:
 * the acquirer may be answering) or already authorised. One waiting for 3DS is not: the shopper
 * may have walked away (nothing sweeps it), and its completion checks the link after its lease.
 */
export function paymentUnderWay(payments: readonly Pick<Payment, 'state'>[]): boolean {
  return payments.some((payment) => payment.state !== 'STARTED' && payment.state !== 'FAILED' && payment.state !== 'AWAIT_3DS');
}
