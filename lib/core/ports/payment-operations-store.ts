import type { Payment, PaymentFailure, PaymentOperation, PaymentState } from '../domain/payment.js';
import type { OutboxEntry } from './outbox.js';

export interface SettledTotals {
  state: PaymentState;
  capturedAmount: number;
  refundedAmount: number;
  refundable: number;
}

type PaymentKey = Pick<Payment, 'orderRef' | 'paymentRef'>;

/**
 * Captures, reversals and refunds on the payment record (SPEC 4.11–4.13), each a single
 * conditional write (StoreConflictError with the payment as it was otherwise):
 * - `reserve` starts an operation: it tests the state and the remaining total and decrements
 *   it in the same write, so no interleaving can over-capture or over-refund;
 * - `succeed` records the acquirer's approval, the new totals and state, and the events, only
 *   over the version `seen` and while the operation is still pending;
 * - `fail` records a refusal and gives the reservation back.
 */
export interface PaymentOperationsStore {
  reserve(payment: PaymentKey, ref: string, operation: PaymentOperation): Promise<Payment>;
  succeed(seen: Payment, ref: string, totals: SettledTotals, settledAt: string, events: readonly OutboxEntry[], now: number): Promise<Payment>;
  fail(payment: PaymentKey, ref: string, operation: PaymentOperation, failure: PaymentFailure, settledAt: string): Promise<Payment>;
}
