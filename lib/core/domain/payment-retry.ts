import { createHash } from 'node:crypto';
import { DECLINE_REASONS } from './decline.js';
import type { Payment } from './payment.js';

/**
 * A new payment on the same order after a decline (as N-Genius does): the shopper tries another
 * card without the merchant creating another order. docs/integrating/hosted-page.md, "Retry after a decline".
 */

/** At most this many payments (attempts) per order; the last one's failure is final. */
export const MAX_PAYMENTS_PER_ORDER = 5;

/**
 * Declines another card (or another try) may fix: every `soft` decline reason
 * (lib/core/domain/decline.ts: the card's own limits or state, the issuer for now, a failed or
 * abandoned cardholder authentication), plus an expired card — `hard` for that card, but the
 * next payment is made with another one — and an expired 3DS step-up. Anything else — lost or
 * stolen card, suspected fraud, "transaction not permitted", a code we do not know — is final:
 * an allow-list, so a new processor code is not retryable until someone decides it is (and card
 * testing gets no loop).
 */
export const RETRYABLE_FAILURE_CODES: ReadonlySet<string> = new Set([
  ...Object.entries(DECLINE_REASONS)
    .filter(([, { retry }]) => retry === 'soft')
    .map(([reason]) => reason),
  'CARD_EXPIRED',
  'THREE_DS_EXPIRED',
]);

/** Which attempt a payment is (1 for the order's first; stored as `attempt` on retries). */
export const attemptOf = (payment: Pick<Payment, 'attempt'>): number => payment.attempt ?? 1;

/** Whether a FAILED payment lets the order get another one (exposed as `retryable`). */
export function failureAllowsRetry(payment: Pick<Payment, 'state' | 'failure' | 'attempt'>): boolean {
  return payment.state === 'FAILED' && RETRYABLE_FAILURE_CODES.has(payment.failure?.code ?? '') && attemptOf(payment) < MAX_PAYMENTS_PER_ORDER;
}

/** The order's payments, first attempt first (the attempt number, not a clock, decides). */
export function inAttemptOrder<T extends Pick<Payment, 'attempt' | 'createdAt'>>(payments: readonly T[]): T[] {
  return [...payments].sort((a, b) => attemptOf(a) - attemptOf(b) || a.createdAt.localeCompare(b.createdAt));
}

/**
 * Why the order may not get a new payment now, or undefined when it may: every payment so far
 * failed (none authorised, none in progress), the latest with a retryable code, and fewer than
 * MAX_PAYMENTS_PER_ORDER payments.
 */
export function retryRefusal(payments: readonly Payment[]): string | undefined {
  const latest = inAttemptOrder(payments).at(-1);
  if (!latest || payments.some((payment) => payment.state !== 'FAILED')) return 'Only an order whose payments all failed can get a new payment.';
  if (payments.length >= MAX_PAYMENTS_PER_ORDER || attemptOf(latest) >= MAX_PAYMENTS_PER_ORDER)
    return `An order has at most ${MAX_PAYMENTS_PER_ORDER} payments.`;
  if (!failureAllowsRetry(latest)) return 'The last payment was declined for a reason another attempt cannot fix.';
  return undefined;
}

/**
 * The reference of the payment that follows `previous`: derived from it, so two concurrent
 * retries of the same failed payment write the same item and the conditional put lets exactly
 * one of them through. Unpredictable to anyone who does not know `previous` (a random UUID).
 */
export function nextPaymentRef(previous: Pick<Payment, 'paymentRef'>): string {
  const hex = createHash('sha256').update(`retry-of:${previous.paymentRef}`).digest('hex');
  // Shaped like a version-4 UUID, as every other paymentRef is.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
