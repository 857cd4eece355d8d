import { StoreConflictError } from '../ports/store-conflict.js';
import { remainingMs } from '../deadline.js';
import type { Order } from '../domain/order.js';
import { AUTHORISED_STATES, type Payment } from '../domain/payment.js';
import { authorizationEventTypes, paymentEvent, paymentLinkPaidEvent } from '../events/payment-event.js';
import { DependencyUnavailableError } from '../errors.js';
import { authorizationConfirmations } from '../network/confirmation.js';

import type { FinalPatch } from '../ports/payment-store.js';
import { settledFrom } from './settled-from.js';
import type { PaymentDeps } from './deps.js';
import { currentOf, settledOrConflict } from './lease.js';

/** What the final write needs: the store, the clock, how events show a payment, and the lease period (for a 409's Retry-After). */
export type FinalWriteDeps = Pick<PaymentDeps, 'payments' | 'now' | 'represent'> & { settings: Pick<PaymentDeps['settings'], 'leaseMs'> };

/** How long the final write is retried after the acquirer answered, within the deadline. */
export const FINAL_WRITE = { budgetMs: 6_000, firstBackoffMs: 100, minRemainingMs: 300 } as const;

/**
 * The lease holder's final write. Once the acquirer has answered, giving up early would
 * leave an approved payment looking unpaid, so a failed write is retried (backoff) while the
 * budget and the invocation's deadline allow. A write that landed although its answer was
 * lost is recognised on the retry by `settledBy` (our lease id) and returned as ours; it also
 * records the credential, so the same request sent again gets this outcome (not a 409).
 * Gives up with 503: the payment keeps its lease, and the attempt that takes it over after
 * expiry asks the acquirer's lookup and records that outcome (never a second authorization).
 */
export async function writeFinal(
  deps: FinalWriteDeps,
  order: Order,
  payment: Payment,
  leaseId: string,
  patch: FinalPatch,
  credential?: string,
  /** The payment as our own lease left it (LeaseTaken.leased), when known. */
  leased?: Payment,
): Promise<Payment> {
  // The budget counts the time this loop waits (real timers), not the domain clock: a frozen
  // clock must not turn a store that stays down into an endless retry.
  let waited = 0;
  let backoff = FINAL_WRITE.firstBackoffMs;
  // The events are made once: a retried write that already landed must not announce twice.
  const now = deps.now();
  const updatedAt = new Date(now).toISOString();
  // What the write leaves, when our lease says what it wrote over (so nothing is sent back).
  const settled = leased && settledFrom(leased, patch, { version: leased.version + 1, updatedAt, settledBy: leaseId, credential });
  const after: Payment = settled ?? { ...payment, ...patch, updatedAt };
  // One millisecond apart, so that their ids (time-ordered) keep the order: authorised, then captured.
  const paymentEvents = authorizationEventTypes(patch.state).map((type, index) => paymentEvent(type, order, deps.represent(after), now + index));
  // A payment link's order: the same write marks the link paid for its merchant (SPEC 4.14).
  if (order.linkRef && AUTHORISED_STATES.has(patch.state))
    paymentEvents.push(paymentLinkPaidEvent({ ...order, linkRef: order.linkRef }, deps.represent(after), now + paymentEvents.length));
  // A Mastercard checkout's outcome is confirmed to the network through the same outbox (4.3).
  const events = [...paymentEvents, ...authorizationConfirmations(order, after, now)];
  for (;;) {
    try {
      return await deps.payments.finish(payment, leaseId, patch, credential, events, now, settled);
    } catch (error) {
      if (error instanceof StoreConflictError) {
        const current = await currentOf(deps, payment, error);
        if (current?.settledBy === leaseId) return current; // our write landed; its answer did not
        return settledOrConflict(deps, current, credential, deps.now());
      }
      const timeLeft = Math.min(FINAL_WRITE.budgetMs - waited, remainingMs());
      if (!(error instanceof DependencyUnavailableError) || timeLeft < backoff + FINAL_WRITE.minRemainingMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, backoff));
      waited += backoff;
      backoff *= 2;
    }
  }
}
