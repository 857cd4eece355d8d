import type { Payment, PaymentFailure, PaymentOperation, PaymentState } from '../domain/payment.js';
import type { OutboxEntry } from './outbox.js';

export interface SettledTotals {
  state: PaymentState;
  capturedAmount: number;
  refundedAmount: number;
  refundable: number;
}

/** The totals after a succeeded capture or refund is undone (its report said it failed after all). */
export interface RevertedTotals extends SettledTotals {
  capturable: number;
}

type PaymentKey = Pick<Payment, 'orderRef' | 'paymentRef'>;

/** Who sends an operation to the acquirer, from when it may land, and which reservation it is. */
export interface OperationClaim {
  sentBy: string;
  sentAt: string;
  inFlightUntil: number;
  attemptId: string;
}

/**
 * Captures, reversals and refunds on the payment record (SPEC 4.11–4.13), each a single
 * conditional write (StoreConflictError with the payment as it was otherwise):
 * - `reserve` starts an operation: it tests the state and the remaining total and decrements
 *   it in the same write, so no interleaving can over-capture or over-refund; a payment whose
 *   outbox holds too many undelivered events (a store's size limit: 10 for DynamoDB's 400 KB
 *   items) takes none until they are delivered (DependencyUnavailableError, retry later); `again` reserves
 *   once more an operation the service did not perform (FAILED NOT_PERFORMED, as seen);
 * - `claim` records who calls the acquirer for the reservation as seen: one claim per
 *   reservation lands, so only one request ever calls;
 * - `succeed` records the acquirer's approval, the new totals and state, and the events, only
 *   over the version `seen` and while the operation is still pending;
 * - `fail` records a refusal and gives the reservation back;
 * - `acknowledge` records the processor's reference of an operation it has and decides later;
 * - `revert` undoes a succeeded capture or refund the processor later reported failed.
 */
export interface PaymentOperationsStore {
  reserve(payment: PaymentKey, ref: string, operation: PaymentOperation, again?: PaymentOperation): Promise<Payment>;
  claim(seen: Payment, ref: string, claim: OperationClaim): Promise<Payment>;
  succeed(seen: Payment, ref: string, totals: SettledTotals, settledAt: string, events: readonly OutboxEntry[], now: number): Promise<Payment>;
  fail(payment: PaymentKey, ref: string, operation: PaymentOperation, failure: PaymentFailure, settledAt: string): Promise<Payment>;
  /** With `events` (the processor recovery of it) appended to the outbox in the same write. */
  acknowledge(
    seen: Payment,
    ref: string,
    operation: PaymentOperation,
    processorReference: string,
    events: readonly OutboxEntry[],
    now: number,
  ): Promise<Payment>;
  revert(
    seen: Payment,
    ref: string,
    totals: RevertedTotals,
    failure: PaymentFailure,
    settledAt: string,
    events: readonly OutboxEntry[],
    now: number,
  ): Promise<Payment>;
}
