import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal.js';
import type { Amount, Order } from '../domain/order.js';
import { NOT_PERFORMED, OPERATION_STARTS_FROM, type OperationKind, type Payment, type PaymentOperation } from '../domain/payment.js';
import {
  AmountExceedsAvailableError,
  AmountMismatchError,
  AuthorizationUnavailableError,
  IdempotencyKeyReusedError,
  NotFoundError,
  PaymentStateConflictError,
} from '../errors.js';

import { orderInScope } from '../orders/order-scope.js';
import { AcquirerNotReachedError, modifyWithTimeout, recoverWithTimeout, type AuthorizationOutcome, type Authorizer } from '../ports/authorizer.js';

import type { LifecycleDeps, LifecycleFacts } from './deps.js';
import { earlierOperationInFlight, earlierOperationUnknown, operationNotReached, operationUnanswered } from './operation-unavailable.js';
import { currentOf, modificationRequest, recordFailure, recordOutcome, settleAbandoned, settleAcknowledged } from './settle-operation.js';
import { StoreConflictError } from '../ports/store-conflict.js';

export interface ModificationInput {
  kind: OperationKind;
  /** Omitted: everything left (to capture, to refund); a reversal never names one. */
  amount?: Amount;
  /** The operation's own reference, also the acquirer's idempotency key. */
  ref: string;
}

/**
 * SPEC 4.11–4.13: capture, reverse or refund an authorized payment, at most once at the
 * acquirer (SPEC §3), and performed when its own request comes back after a fault (SPEC 4.13
 * "Operations after a fault"). The operation lives on the payment item under its reference
 * (the acquirer's idempotency key; derived from the Idempotency-Key: operation-ref.ts) and
 * moves by conditional writes only:
 *
 * 1. reserve — the amount leaves `capturable`/`refundable`; the operation is PENDING with a
 *    random `attemptId` and no `sentBy`: the acquirer has not heard of it.
 * 2. claim — before calling the acquirer, a second write sets `sentBy` (random per claim), on
 *    condition that the operation is still that reservation with no claim (or, to send again,
 *    the claim it saw). One claim per generation lands, so only one request ever calls; an SDK
 *    retry of a landed claim meets its own `sentBy` and still calls (once: the retry did not).
 * 3. call, then record the answer (approval: totals and state; refusal: the amount back).
 *
 * Whoever comes with the same reference reads where the operation stands:
 * - PENDING, never claimed: the reservation landed but nobody sent it (typically DynamoDB
 *   stalled at the reservation; the request answered 503 and the write landed later). The
 *   request coming back claims and sends it now. A reservation that races its own request
 *   (still alive between its reserve and its claim) is settled by the claim: one of them calls.
 * - PENDING, claimed: the call may have reached the acquirer. `recover` is asked; known → its
 *   answer is recorded. Unknown while the call could still land (`inFlightUntil`), or while the
 *   processor is still at it → 502 with Retry-After, nothing sent. Absent after → it never
 *   arrived: claimed again and sent under the same reference, so even an earlier call that did
 *   arrive is deduplicated by the acquirer.
 * - PENDING, acknowledged (`processorReference`): the processor has it and decides later (Adyen
 *   settles every modification by notification, Checkout.com's actions are accepted first): the
 *   acquirer is asked once whether it has decided; if not, the payment is the answer as it
 *   stands, the operation PENDING (201) — its report, or a later recovery, settles it.
 * - FAILED NOT_PERFORMED: the service chose not to perform it (the acquirer was certainly not
 *   reached, or another request gave back an abandoned reservation) and the amount is free. It
 *   is reserved again (a new `attemptId`, the same amount) and performed: the Idempotency-Key
 *   never pins a failure the merchant was told to retry past.
 * - SUCCEEDED, or FAILED by the acquirer: that is the answer.
 * `fail` is conditioned on the generation it saw (attemptId + sentBy), so a late failure write
 * never lands on a later reservation or claim; approvals on the item's version.
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
  const acquirer = await deps.authorizers.for(merchant);

  // Operations others left pending past their window are settled first: they hold amounts.
  for (const [ref, op] of Object.entries(payment.operations ?? {})) {
    if (ref !== input.ref && op.state === 'PENDING' && (op.inFlightUntil ?? 0) <= deps.now()) {
      payment = await settleAbandoned(deps, order, acquirer, payment, ref, facts);
    }
  }

  // Each step is one conditional write (or the acquirer's answer) and re-reads on a lost race;
  // every path ends in an answer within a few steps.
  for (let step = 0; step < MAX_STEPS; step++) {
    const operation = payment.operations?.[input.ref];
    if (!operation) {
      payment = await reserve(deps, payment, input);
      continue;
    }
    assertSameOperation(operation, payment, input);
    if (operation.state === 'SUCCEEDED') return payment;
    if (operation.state === 'FAILED') {
      if (operation.failure?.code !== NOT_PERFORMED) return payment; // the acquirer's own answer
      payment = await reserveAgain(deps, payment, input.ref, operation);
      continue;
    }
    if (operation.processorReference) return settleAcknowledged(deps, order, acquirer, payment, input.ref, facts);
    if (wasSent(operation)) {
      const asked = await askAcquirer(deps, order, acquirer, payment, input.ref, facts);
      if (asked !== 'never-arrived') {
        payment = asked;
        continue;
      }
    }
    const claim = await claimSend(deps, payment, input.ref, operation);
    if (claim.kind === 'lost') {
      payment = claim.payment;
      continue;
    }
    payment = await send(deps, order, acquirer, claim.payment, input.ref, facts);
  }
  throw new PaymentStateConflictError('The payment is changing too often to carry out this operation; retry shortly.', { retryAfterMs: 1000 });
}

const MAX_STEPS = 8;

/** Claimed for the acquirer at some point (an operation from before claims existed counts as claimed). */
const wasSent = (operation: PaymentOperation) => operation.sentBy !== undefined || operation.attemptId === undefined;

/**
 * A claimed operation of this very request: what did the acquirer do under its reference? Known
 * → recorded (pending: acknowledged). Not decided yet, or unknown while the call may still land
 * → 502 with Retry-After. Absent after → 'never-arrived': the caller sends it (again).
 */
async function askAcquirer(
  deps: LifecycleDeps,
  order: Order,
  acquirer: Authorizer,
  seen: Payment,
  ref: string,
  facts: LifecycleFacts,
): Promise<Payment | 'never-arrived'> {
  const operation = seen.operations![ref]!;
  const answer = await recoverWithTimeout(acquirer, { operation: 'MODIFY', request: modificationRequest(seen, ref) }, deps.settings.authorizerTimeoutMs).catch(
    (error: unknown) => {
      throw error instanceof AuthorizationUnavailableError ? earlierOperationUnknown(operation.kind, { cause: error }) : error;
    },
  );
  facts.logger.info('acquirer asked about a pending operation', {
    paymentRef: seen.paymentRef,
    operationRef: ref,
    kind: operation.kind,
    answer: answer.kind,
  });
  if (answer.kind === 'known') return recordOutcome(deps, order, seen, ref, answer.outcome);
  const until = operation.inFlightUntil ?? 0;
  if (answer.kind !== 'absent') {
    throw earlierOperationInFlight(operation.kind, { retryAfterMs: Math.max(until - deps.now(), deps.settings.inFlightMs) });
  }
  if (until > deps.now()) {
    throw earlierOperationInFlight(operation.kind, { retryAfterMs: until - deps.now() });
  }
  return 'never-arrived';
}

/** The conditional claim of the call to the acquirer (repository `claim`): won, or the payment as it now is. */
async function claimSend(deps: LifecycleDeps, seen: Payment, ref: string, operation: PaymentOperation): Promise<{ kind: 'won' | 'lost'; payment: Payment }> {
  const now = deps.now();
  const sentBy = randomUUID();
  try {
    const claimed = await deps.operations.claim(seen, ref, {
      sentBy,
      sentAt: new Date(now).toISOString(),
      inFlightUntil: now + deps.settings.authorizerTimeoutMs + deps.settings.inFlightMs,
      attemptId: operation.attemptId ?? randomUUID(),
    });
    return { kind: 'won', payment: claimed };
  } catch (error) {
    if (!(error instanceof StoreConflictError)) throw error;
    const current = await currentOf(deps, seen, error);
    // Our claim landed, its answer was lost and the SDK's retry met it: it is ours.
    if (current.operations?.[ref]?.sentBy === sentBy) return { kind: 'won', payment: current };
    return { kind: 'lost', payment: current };
  }
}

/** Calls the acquirer for a claimed operation and records its answer. */
async function send(deps: LifecycleDeps, order: Order, acquirer: Authorizer, claimed: Payment, ref: string, facts: LifecycleFacts): Promise<Payment> {
  const operation = claimed.operations![ref]!;
  facts.logger.info('payment operation requested', {
    paymentRef: claimed.paymentRef,
    operationRef: ref,
    kind: operation.kind,
    amount: operation.amount,
    attemptId: operation.attemptId,
  });
  const request = modificationRequest(claimed, ref);
  let outcome: AuthorizationOutcome;
  try {
    outcome = await modifyWithTimeout(acquirer, request, deps.settings.authorizerTimeoutMs);
  } catch (error) {
    if (error instanceof AcquirerNotReachedError) {
      // Certainly not performed: the amount is free at once; the same request later performs it.
      await recordFailure(deps, claimed, ref, { code: NOT_PERFORMED, reason: 'The acquirer could not be reached' }).catch(() => undefined);
      throw operationNotReached(operation.kind, { cause: error });
    }
    if (error instanceof AuthorizationUnavailableError) {
      // May have landed: stays PENDING; the same reference later asks `recover` first.
      throw operationUnanswered(operation.kind, { cause: error, retryAfterMs: (operation.inFlightUntil ?? deps.now()) - deps.now() });
    }
    throw error;
  }
  const settled = await recordOutcome(deps, order, claimed, ref, outcome);
  facts.logger.info('payment operation settled', {
    paymentRef: claimed.paymentRef,
    operationRef: ref,
    state: settled.operations?.[ref]?.state,
    paymentState: settled.state,
  });
  return settled;
}

/** The conditional reservation of a new operation, with the refusal explained from the item it failed on. */
async function reserve(deps: LifecycleDeps, payment: Payment, input: ModificationInput): Promise<Payment> {
  if (input.amount && input.amount.currencyCode !== payment.amount.currencyCode) throw new AmountMismatchError('The amount’s currency is not the payment’s.');
  if (Object.keys(payment.operations ?? {}).length >= deps.settings.maxOperations) {
    throw new PaymentStateConflictError(`A payment takes at most ${deps.settings.maxOperations} captures and refunds.`);
  }
  let current = payment;
  // An omitted amount means "all that is left", which a concurrent operation may shrink: try again.
  for (let attempt = 0; attempt < 3; attempt++) {
    assertStartsFrom(current, input.kind);
    const value =
      input.kind === 'REVERSAL' ? current.amount.value : (input.amount?.value ?? (input.kind === 'CAPTURE' ? current.capturable : current.refundable) ?? 0);
    if (value <= 0) throw new AmountExceedsAvailableError();
    try {
      return await deps.operations.reserve(current, input.ref, pendingOperation(deps, input.kind, value));
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
      current = await currentOf(deps, current, error);
      // The same reference reserved first (an SDK retry of our own write, or the same request
      // twice at once): the claim decides who sends it.
      if (current.operations?.[input.ref]) return current;
      if (input.amount) break;
    }
  }
  return refuse(current, input.kind);
}

/** An operation the service did not perform, brought back by its own request: the same amount, reserved anew. */
async function reserveAgain(deps: LifecycleDeps, payment: Payment, ref: string, failed: PaymentOperation): Promise<Payment> {
  try {
    return await deps.operations.reserve(payment, ref, pendingOperation(deps, failed.kind, failed.amount), failed);
  } catch (error) {
    if (!(error instanceof StoreConflictError)) throw error;
    const current = await currentOf(deps, payment, error);
    const now = current.operations?.[ref];
    if (now?.state !== 'FAILED' || now.attemptId !== failed.attemptId) return current; // reserved again by someone else
    return refuse(current, failed.kind);
  }
}

function pendingOperation(deps: LifecycleDeps, kind: OperationKind, amount: number): PaymentOperation {
  const now = deps.now();
  return {
    kind,
    amount,
    state: 'PENDING',
    at: new Date(now).toISOString(),
    attemptId: randomUUID(),
    // Until then the request that reserved it may still claim and send it.
    inFlightUntil: now + deps.settings.authorizerTimeoutMs + deps.settings.inFlightMs,
  };
}

/** Why a reservation's condition failed, from the item it failed on. */
function refuse(current: Payment, kind: OperationKind): never {
  assertStartsFrom(current, kind);
  if (kind === 'REVERSAL') throw new PaymentStateConflictError('Only an authorization with nothing captured or being captured can be reversed.');
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
