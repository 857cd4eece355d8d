import { NOT_PERFORMED, OPERATION_STARTS_FROM, type Payment, type PaymentFailure, type PaymentOperation } from '../../core/domain/payment.js';
import { DependencyUnavailableError } from '../../core/errors.js';
import type { OutboxEntry } from '../../core/ports/outbox.js';
import type { OperationClaim, PaymentOperationsStore, RevertedTotals, SettledTotals } from '../../core/ports/payment-operations-store.js';
import { appendToOutbox, MAX_UNDRAINED_EVENTS } from './outbox-append.js';
import { conflict, copy, paymentKey, type MemoryTables, type PaymentRecord } from './tables.js';

type PaymentKey = Pick<Payment, 'orderRef' | 'paymentRef'>;

/**
 * Captures, reversals and refunds in memory, with the DynamoDB store's conditions
 * (payment-operations-repository.ts), each tested and applied in one step:
 * - `reserve`: the state allows the kind, the remaining total covers the amount (a reversal:
 *   nothing captured or reserved), the reference is new — or, `again`, still the FAILED
 *   NOT_PERFORMED generation seen — and the outbox has room; the total is decremented at once;
 * - `claim` and `fail`: only over the generation seen (the same `attemptId` and `sentBy`, or
 *   still none of each) while the operation is PENDING;
 * - `succeed`: only over the version seen, while the operation is PENDING;
 * - `acknowledge`: over the generation seen while the operation is PENDING (it stays so);
 * - `revert`: only over the version seen, while the operation is SUCCEEDED.
 */
export class MemoryPaymentOperationsStore implements PaymentOperationsStore {
  constructor(private readonly tables: MemoryTables) {}

  async reserve(payment: PaymentKey, ref: string, operation: PaymentOperation, again?: PaymentOperation): Promise<Payment> {
    const record = this.tables.payments.get(paymentKey(payment.orderRef, payment.paymentRef));
    if (!record || !reservable(record, ref, operation, again)) {
      const refusal = conflict(record?.payment);
      if ((record?.outbox.length ?? 0) >= MAX_UNDRAINED_EVENTS) {
        throw new DependencyUnavailableError('Events of this payment are still being delivered; retry shortly.', { cause: refusal, retryAfterMs: 5000 });
      }
      throw refusal;
    }
    const stored = record.payment;
    if (operation.kind === 'CAPTURE') stored.capturable = stored.capturable! - operation.amount;
    else if (operation.kind === 'REFUND') stored.refundable = stored.refundable! - operation.amount;
    else stored.capturable = 0;
    stored.operations = { ...stored.operations, [ref]: copy(operation) };
    stored.version += 1;
    stored.updatedAt = operation.at;
    return copy(stored);
  }

  async claim(seen: Payment, ref: string, send: OperationClaim): Promise<Payment> {
    const record = this.tables.payments.get(paymentKey(seen.orderRef, seen.paymentRef));
    const current = record?.payment.operations?.[ref];
    if (!record || !current || current.state !== 'PENDING' || !sameGeneration(current, seen.operations![ref]!)) throw conflict(record?.payment);
    Object.assign(current, { sentBy: send.sentBy, sentAt: send.sentAt, inFlightUntil: send.inFlightUntil, attemptId: send.attemptId });
    record.payment.version += 1;
    return copy(record.payment);
  }

  async succeed(seen: Payment, ref: string, totals: SettledTotals, settledAt: string, events: readonly OutboxEntry[], now: number): Promise<Payment> {
    const record = this.tables.payments.get(paymentKey(seen.orderRef, seen.paymentRef));
    const current = record?.payment.operations?.[ref];
    if (!record || record.payment.version !== seen.version || current?.state !== 'PENDING') throw conflict(record?.payment);
    current.state = 'SUCCEEDED';
    current.settledAt = settledAt;
    delete current.inFlightUntil;
    Object.assign(record.payment, {
      state: totals.state,
      capturedAmount: totals.capturedAmount,
      refundedAmount: totals.refundedAmount,
      refundable: totals.refundable,
      version: record.payment.version + 1,
      updatedAt: settledAt,
    });
    appendToOutbox(record, events, now);
    return copy(record.payment);
  }

  async acknowledge(
    seen: Payment,
    ref: string,
    operation: PaymentOperation,
    processorReference: string,
    events: readonly OutboxEntry[],
    now: number,
  ): Promise<Payment> {
    const record = this.tables.payments.get(paymentKey(seen.orderRef, seen.paymentRef));
    const current = record?.payment.operations?.[ref];
    if (!record || current?.state !== 'PENDING' || !sameGeneration(current, operation)) throw conflict(record?.payment);
    current.processorReference = processorReference;
    record.payment.version += 1;
    appendToOutbox(record, events, now);
    return copy(record.payment);
  }

  async revert(
    seen: Payment,
    ref: string,
    totals: RevertedTotals,
    failure: PaymentFailure,
    settledAt: string,
    events: readonly OutboxEntry[],
    now: number,
  ): Promise<Payment> {
    const record = this.tables.payments.get(paymentKey(seen.orderRef, seen.paymentRef));
    const current = record?.payment.operations?.[ref];
    if (!record || record.payment.version !== seen.version || current?.state !== 'SUCCEEDED') throw conflict(record?.payment);
    Object.assign(current, { state: 'FAILED', failure: copy(failure), settledAt });
    Object.assign(record.payment, {
      state: totals.state,
      capturedAmount: totals.capturedAmount,
      refundedAmount: totals.refundedAmount,
      capturable: totals.capturable,
      refundable: totals.refundable,
      version: record.payment.version + 1,
      updatedAt: settledAt,
    });
    appendToOutbox(record, events, now);
    return copy(record.payment);
  }

  async fail(payment: PaymentKey, ref: string, operation: PaymentOperation, failure: PaymentFailure, settledAt: string): Promise<Payment> {
    const record = this.tables.payments.get(paymentKey(payment.orderRef, payment.paymentRef));
    const current = record?.payment.operations?.[ref];
    if (!record || current?.state !== 'PENDING' || !sameGeneration(current, operation)) throw conflict(record?.payment);
    const stored = record.payment;
    Object.assign(current, { state: 'FAILED', failure: copy(failure), settledAt });
    delete current.inFlightUntil;
    // The reservation goes back where it came from; a reversal restores the whole authorization.
    if (operation.kind === 'CAPTURE') stored.capturable = stored.capturable! + operation.amount;
    else if (operation.kind === 'REFUND') stored.refundable = stored.refundable! + operation.amount;
    else stored.capturable = stored.amount.value;
    stored.version += 1;
    stored.updatedAt = settledAt;
    return copy(stored);
  }
}

/** The reservation's condition, as one predicate over the stored record. */
function reservable({ payment, outbox }: PaymentRecord, ref: string, operation: PaymentOperation, again: PaymentOperation | undefined): boolean {
  if (!OPERATION_STARTS_FROM[operation.kind].includes(payment.state)) return false;
  const covered =
    operation.kind === 'CAPTURE'
      ? payment.capturable !== undefined && payment.capturable >= operation.amount
      : operation.kind === 'REFUND'
        ? payment.refundable !== undefined && payment.refundable >= operation.amount
        : payment.capturable === payment.amount.value;
  if (!covered || outbox.length >= MAX_UNDRAINED_EVENTS) return false;
  const existing = payment.operations?.[ref];
  if (!again) return existing === undefined;
  return existing?.state === 'FAILED' && existing.failure?.code === NOT_PERFORMED && sameGeneration(existing, again);
}

/** Still the reservation and the claim `seen` shows: the same `attemptId` and `sentBy` (or, for each, still none). */
const sameGeneration = (stored: PaymentOperation, seen: PaymentOperation): boolean => stored.attemptId === seen.attemptId && stored.sentBy === seen.sentBy;
