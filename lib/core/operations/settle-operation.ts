import type { Order } from '../domain/order.js';
import { NOT_PERFORMED, stateAfterOperations, type Payment, type PaymentFailure } from '../domain/payment.js';
import { AuthorizationUnavailableError, PaymentStateConflictError } from '../errors.js';
import { operationEventType, paymentEvent } from '../events/payment-event.js';
import { operationConfirmations } from '../network/confirmation.js';

import { recoverWithTimeout, type AuthorizationOutcome, type Authorizer, type ModificationRequest } from '../ports/authorizer.js';
import { failureOf } from '../domain/decline.js';
import { recoveryEntry } from '../payments/recovery-entry.js';
import { currentOf as paymentAsItWas } from '../payments/lease.js';
import type { LifecycleDeps, LifecycleFacts } from './deps.js';
import { recordPaymentOperation } from '../payments/payment-metrics.js';
import { earlierOperationUnknown } from './operation-unavailable.js';
import { StoreConflictError } from '../ports/store-conflict.js';

/** What recording an operation's outcome needs: the stores, the clock, how events show a payment. */
export type SettleDeps = Pick<LifecycleDeps, 'operations' | 'payments' | 'now' | 'represent'>;

/** Optimistic retries of the approval write; each lost race re-reads (others' writes are small). */
const MAX_SETTLE_ATTEMPTS = 30;

/**
 * Records the acquirer's answer for a pending operation. An approval moves the totals and the
 * state and announces the event in the same write; a refusal gives the reservation back; a
 * pending answer records that the processor acknowledged it (its outcome comes later).
 * Whoever records first wins; everyone else returns the payment as it then is.
 */
export async function recordOutcome(deps: SettleDeps, order: Order, seen: Payment, ref: string, outcome: AuthorizationOutcome): Promise<Payment> {
  if (outcome.kind === 'declined') return recordFailure(deps, seen, ref, failureOf(outcome.decline));
  if (outcome.kind === 'pending') return recordAcknowledged(deps, order, seen, ref, outcome.processorReference);
  let current = seen;
  for (let attempt = 0; attempt < MAX_SETTLE_ATTEMPTS; attempt++) {
    const operation = current.operations?.[ref];
    if (operation?.state !== 'PENDING') return current;
    const now = deps.now();
    const settledAt = new Date(now).toISOString();
    const totals = totalsAfter(current, operation.kind, operation.amount);
    const after: Payment = {
      ...current,
      ...totals,
      updatedAt: settledAt,
      operations: { ...current.operations, [ref]: { ...operation, state: 'SUCCEEDED', settledAt } },
    };
    const event = paymentEvent(operationEventType(operation.kind, after), order, deps.represent(after), now);
    try {
      const settled = await deps.operations.succeed(current, ref, totals, settledAt, [event, ...operationConfirmations(order, after, ref, now)], now);
      recordPaymentOperation(operation.kind, 'succeeded');
      return settled;
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
      current = await currentOf(deps, current, error);
    }
  }
  throw new PaymentStateConflictError('The payment is changing too often to record this operation; retry shortly.', { retryAfterMs: 1000 });
}

/**
 * Records that the processor acknowledged the operation as `seen` (its generation), and its
 * reference for it — with its recovery in the outbox, so that it is settled even if nobody asks.
 */
async function recordAcknowledged(deps: SettleDeps, order: Order, seen: Payment, ref: string, processorReference: string): Promise<Payment> {
  const operation = seen.operations?.[ref];
  if (operation?.state !== 'PENDING' || operation.processorReference === processorReference) return seen;
  const now = deps.now();
  try {
    return await deps.operations.acknowledge(seen, ref, operation, processorReference, [recoveryEntry(order, seen.paymentRef, ref, now)], now);
  } catch (error) {
    if (!(error instanceof StoreConflictError)) throw error;
    return currentOf(deps, seen, error); // settled meanwhile (its report came first), or claimed again
  }
}

/** Records a failure over the operation as `seen` (its generation: a later reservation or claim is left alone). */
export async function recordFailure(deps: SettleDeps, seen: Payment, ref: string, failure: PaymentFailure): Promise<Payment> {
  const operation = seen.operations?.[ref];
  if (operation?.state !== 'PENDING') return seen;
  try {
    const failed = await deps.operations.fail(seen, ref, operation, failure, new Date(deps.now()).toISOString());
    recordPaymentOperation(operation.kind, 'failed');
    return failed;
  } catch (error) {
    if (!(error instanceof StoreConflictError)) throw error;
    return currentOf(deps, seen, error); // someone recorded it first, or it was claimed or reserved again
  }
}

/**
 * Another request's operation left PENDING past its window (its caller timed out or crashed, or
 * its reservation landed after its request had answered), or one the processor acknowledged and
 * has not reported on yet: it holds an amount, so the acquirer is asked under the operation's
 * reference — never sent it. Absent at the acquirer → it never happened: FAILED NOT_PERFORMED,
 * the reservation returned. That is the service's own choice: the operation's request, if it
 * comes back, reserves and performs it again (modify-payment.ts). An acknowledged operation is
 * never concluded absent, and one the acquirer has not decided stays PENDING.
 */
export async function settleAbandoned(
  deps: LifecycleDeps,
  order: Order,
  acquirer: Authorizer,
  seen: Payment,
  ref: string,
  facts: LifecycleFacts,
): Promise<Payment> {
  const operation = seen.operations?.[ref];
  if (operation?.state !== 'PENDING' || (operation.inFlightUntil ?? 0) > deps.now()) return seen;
  if (operation.processorReference) return settleAcknowledged(deps, order, acquirer, seen, ref, facts);
  const answer = await recoverWithTimeout(acquirer, { operation: 'MODIFY', request: modificationRequest(seen, ref) }, deps.settings.authorizerTimeoutMs).catch(
    (error: unknown) => {
      throw error instanceof AuthorizationUnavailableError ? earlierOperationUnknown(operation.kind, { cause: error }) : error;
    },
  );
  facts.logger.info('acquirer asked about an abandoned operation', {
    paymentRef: seen.paymentRef,
    operationRef: ref,
    kind: operation.kind,
    sent: operation.sentBy !== undefined,
    answer: answer.kind,
  });
  if (answer.kind === 'known') return recordOutcome(deps, order, seen, ref, answer.outcome);
  if (answer.kind !== 'absent') return seen; // the processor is still at it: it keeps its amount
  return recordFailure(deps, seen, ref, { code: NOT_PERFORMED, reason: 'The acquirer never received the operation' });
}

/**
 * An operation the processor acknowledged (it has it, and decides later): asked once whether it
 * has decided by now; recorded if so, otherwise the payment as it stands (the operation PENDING,
 * for its report or a later recovery to settle). A failed question changes nothing.
 */
export async function settleAcknowledged(
  deps: LifecycleDeps,
  order: Order,
  acquirer: Authorizer,
  seen: Payment,
  ref: string,
  facts: LifecycleFacts,
): Promise<Payment> {
  const operation = seen.operations?.[ref];
  if (operation?.state !== 'PENDING' || !operation.processorReference) return seen;
  const answer = await recoverWithTimeout(
    acquirer,
    { operation: 'MODIFY', request: modificationRequest(seen, ref), acknowledged: operation.processorReference },
    deps.settings.authorizerTimeoutMs,
  ).catch((error: unknown) => {
    facts.logger.warn('processor not asked about an acknowledged operation', { paymentRef: seen.paymentRef, operationRef: ref, error });
    return undefined;
  });
  if (answer?.kind !== 'known' || answer.outcome.kind === 'pending') return seen;
  return recordOutcome(deps, order, seen, ref, answer.outcome);
}

/** What the acquirer was (or is) asked to do for one operation of the payment. */
export function modificationRequest(payment: Payment, ref: string): ModificationRequest {
  const operation = payment.operations![ref]!;
  return {
    idempotencyKey: ref,
    kind: operation.kind,
    orderRef: payment.orderRef,
    paymentRef: payment.paymentRef,
    // Payments authorized before processors were wired carry none: the sandbox's reference is the paymentRef.
    processorReference: payment.processorReference ?? payment.paymentRef,
    amount: { currencyCode: payment.amount.currencyCode, value: operation.amount },
  };
}

/** The totals and state once a pending operation of `kind` for `amount` is approved. */
export function totalsAfter(payment: Payment, kind: 'CAPTURE' | 'REFUND' | 'REVERSAL', amount: number) {
  const capturedAmount = (payment.capturedAmount ?? 0) + (kind === 'CAPTURE' ? amount : 0);
  const refundedAmount = (payment.refundedAmount ?? 0) + (kind === 'REFUND' ? amount : 0);
  // A refund's reservation already left `refundable`; a capture adds what may now be refunded.
  const refundable = (payment.refundable ?? 0) + (kind === 'CAPTURE' ? amount : 0);
  const state = stateAfterOperations({ amount: payment.amount, capturedAmount, refundedAmount }, kind === 'REVERSAL');
  return { state, capturedAmount, refundedAmount, refundable };
}

/** The payment as the failed condition saw it (lease.ts `currentOf`); it must still exist. */
export async function currentOf(deps: Pick<LifecycleDeps, 'payments'>, seen: Payment, error: StoreConflictError): Promise<Payment> {
  const current = await paymentAsItWas(deps, seen, error);
  if (!current) throw new PaymentStateConflictError('The payment is gone.');
  return current;
}
