import type { Principal } from '../../auth/principal.js';
import type { Amount } from '../../domain/order.js';
import { OPERATION_STARTS_FROM, type OperationKind, type Payment, type PaymentOperation } from '../../domain/payment.js';
import { AmountExceedsAvailableError, AmountMismatchError, AuthorizationUnavailableError, IdempotencyKeyReusedError, NotFoundError, PaymentStateConflictError } from '../../errors.js';
import { ConditionFailed } from '../../repositories/dynamo.js';
import { orderInScope } from '../../services/order-scope.js';
import { AcquirerNotReachedError, modifyWithTimeout } from '../authorizer.js';
import { retryAfter } from '../lease.js';
import type { LifecycleDeps, LifecycleFacts } from './deps.js';
import { operationNotReached, operationUnanswered } from './operation-unavailable.js';
import { currentOf, recordFailure, recordOutcome, resolvePending } from './settle-operation.js';

export interface ModificationInput {
  kind: OperationKind;
  /** Omitted: everything left (to capture, to refund); a reversal never names one. */
  amount?: Amount;
  /** The operation's own reference, also the acquirer's idempotency key. */
  ref: string;
}

/**
 * SPEC 4.11–4.13: capture, reverse or refund an authorized payment, at most once at the
 * acquirer (SPEC §3). Reserve the amount with a conditional write on the totals, call the
 * acquirer with the operation's reference as idempotency key, record the answer. An
 * unanswered call stays PENDING (its reservation held) until the acquirer's `lookup` tells
 * what happened; the same reference sent again resolves it instead of calling twice.
 */
export async function modifyPayment(
  deps: LifecycleDeps,
  principal: Principal,
  ids: { outletId: string; orderRef: string; paymentRef: string },
  input: ModificationInput,
  facts: LifecycleFacts,
): Promise<Payment> {
  const { order, payments } = await orderInScope(deps, principal, ids.outletId, ids.orderRef);
  let payment = payments.find((candidate) => candidate.paymentRef === ids.paymentRef);
  if (!payment) throw new NotFoundError();
  const merchant = await deps.config.getMerchant(order.merchantRef);
  const acquirer = deps.authorizers[merchant?.environment ?? 'production'];

  // Operations others left pending past their window are settled first: they hold amounts.
  for (const [ref, op] of Object.entries(payment.operations ?? {})) {
    if (ref !== input.ref && op.state === 'PENDING' && (op.inFlightUntil ?? 0) <= deps.now()) {
      payment = await resolvePending(deps, order, acquirer, payment, ref, facts);
    }
  }
  const existing = payment.operations?.[input.ref];
  if (existing) {
    assertSameOperation(existing, payment, input);
    return existing.state === 'PENDING' ? resolvePending(deps, order, acquirer, payment, input.ref, facts) : payment;
  }

  const reservation = await reserve(deps, payment, input);
  if (reservation.kind === 'raced') {
    assertSameOperation(reservation.payment.operations![input.ref]!, reservation.payment, input);
    return resolvePending(deps, order, acquirer, reservation.payment, input.ref, facts);
  }
  const reserved = reservation.payment;
  const operation = reserved.operations![input.ref]!;
  facts.logger.info('payment operation requested', { paymentRef: payment.paymentRef, operationRef: input.ref, kind: input.kind, amount: operation.amount });
  const request = { idempotencyKey: input.ref, kind: input.kind, paymentRef: payment.paymentRef, amount: { currencyCode: payment.amount.currencyCode, value: operation.amount } };
  try {
    const outcome = await modifyWithTimeout(acquirer, request, deps.settings.authorizerTimeoutMs);
    const settled = await recordOutcome(deps, order, reserved, input.ref, outcome);
    facts.logger.info('payment operation settled', { paymentRef: payment.paymentRef, operationRef: input.ref, state: settled.operations?.[input.ref]?.state, paymentState: settled.state });
    return settled;
  } catch (error) {
    if (error instanceof AcquirerNotReachedError) {
      await recordFailure(deps, reserved, input.ref, { code: 'NOT_PERFORMED', reason: 'The acquirer could not be reached' }).catch(() => undefined);
      throw operationNotReached(input.kind, { cause: error });
    }
    if (error instanceof AuthorizationUnavailableError) {
      // May have landed: stays PENDING; the same reference later asks `lookup` first.
      throw operationUnanswered(input.kind, { cause: error, headers: retryAfter((operation.inFlightUntil ?? deps.now()) - deps.now()) });
    }
    throw error;
  }
}

/** The conditional reservation, with the refusal explained from the item it failed on. */
async function reserve(deps: LifecycleDeps, payment: Payment, input: ModificationInput): Promise<{ kind: 'reserved' | 'raced'; payment: Payment }> {
  if (input.amount && input.amount.currencyCode !== payment.amount.currencyCode) throw new AmountMismatchError('The amount’s currency is not the payment’s.');
  if (Object.keys(payment.operations ?? {}).length >= deps.settings.maxOperations) {
    throw new PaymentStateConflictError(`A payment takes at most ${deps.settings.maxOperations} captures and refunds.`);
  }
  let current = payment;
  // An omitted amount means "all that is left", which a concurrent operation may shrink: try again.
  for (let attempt = 0; attempt < 3; attempt++) {
    assertStartsFrom(current, input.kind);
    const value = input.kind === 'REVERSAL' ? current.amount.value : input.amount?.value ?? (input.kind === 'CAPTURE' ? current.capturable : current.refundable) ?? 0;
    if (value <= 0) throw new AmountExceedsAvailableError();
    const now = deps.now();
    const operation: PaymentOperation = {
      kind: input.kind,
      amount: value,
      state: 'PENDING',
      at: new Date(now).toISOString(),
      inFlightUntil: now + deps.settings.authorizerTimeoutMs + deps.settings.inFlightMs,
    };
    try {
      return { kind: 'reserved', payment: await deps.operations.reserve(current, input.ref, operation) };
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
      current = await currentOf(deps, current, error);
      // The same reference, sent twice at once, reserved first: its caller calls the acquirer.
      if (current.operations?.[input.ref]) return { kind: 'raced', payment: current };
      if (input.amount) break;
    }
  }
  assertStartsFrom(current, input.kind);
  if (input.kind === 'REVERSAL') throw new PaymentStateConflictError('Only an authorization with nothing captured or being captured can be reversed.');
  const pendingReversal = Object.values(current.operations ?? {}).some((op) => op.kind === 'REVERSAL' && op.state === 'PENDING');
  if (pendingReversal) throw new PaymentStateConflictError('The authorization is being reversed.');
  throw new AmountExceedsAvailableError();
}

/**
 * A reference that already names an operation came from the same Idempotency-Key (operation-ref.ts):
 * a request naming another amount is another request (SPEC 4.13: 422), also when the idempotency
 * layer has no record of the first one (an error is not stored; records last 24 h). An omitted
 * amount names none, so it matches whatever the operation took.
 */
function assertSameOperation(existing: PaymentOperation, payment: Payment, input: ModificationInput): void {
  if (!input.amount) return;
  if (input.amount.value !== existing.amount || input.amount.currencyCode !== payment.amount.currencyCode) throw new IdempotencyKeyReusedError();
}

function assertStartsFrom(payment: Payment, kind: OperationKind): void {
  if (!OPERATION_STARTS_FROM[kind].includes(payment.state)) {
    throw new PaymentStateConflictError(`A payment in state ${payment.state === 'PROCESSING' ? 'STARTED' : payment.state} cannot be ${PAST[kind]}.`);
  }
}

const PAST: Record<OperationKind, string> = { CAPTURE: 'captured', REFUND: 'refunded', REVERSAL: 'reversed' };
