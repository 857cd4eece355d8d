import { StoreConflictError } from '../ports/store-conflict.js';
import { failureOf } from '../domain/decline.js';
import type { Order } from '../domain/order.js';
import type { Payment } from '../domain/payment.js';
import { PaymentStateConflictError } from '../errors.js';

import { recoverWithTimeout, type AuthorizationOutcome, type Authorizer } from '../ports/authorizer.js';
import type { PaymentDeps, RequestFacts } from './deps.js';
import { writeFinal } from './final-write.js';
import type { PaymentContext } from './payment-context.js';
import type { FinalPatch } from '../ports/payment-store.js';

/** An answer that ends the authorization (a pending one does not). */
export type FinalOutcome = Exclude<AuthorizationOutcome, { kind: 'pending' }>;

/** The final state an acquirer's answer means for this order's action. */
export function outcomePatch(outcome: FinalOutcome, order: Pick<Order, 'action' | 'amount'>, paymentRef: string, now: number): FinalPatch {
  const reference = outcome.processorReference ? { processorReference: outcome.processorReference } : {};
  if (outcome.kind === 'declined') return { state: 'FAILED', failure: failureOf(outcome.decline), ...reference };
  const at = new Date(now).toISOString();
  const authorization = { ...(outcome.authorizationCode ? { code: outcome.authorizationCode } : {}), resultCode: outcome.resultCode, at };
  const value = order.amount.value;
  if (order.action === 'AUTH') {
    return { state: 'AUTHORISED', authorization, capturedAmount: 0, refundedAmount: 0, capturable: value, refundable: 0, operations: {}, ...reference };
  }
  // A sale is captured by its authorization: one capture, under the payment's own reference.
  const sale = { kind: 'CAPTURE', amount: value, state: 'SUCCEEDED', at, settledAt: at } as const;
  return {
    state: 'CAPTURED',
    authorization,
    capturedAmount: value,
    refundedAmount: 0,
    capturable: 0,
    refundable: value,
    operations: { [paymentRef]: sale },
    ...reference,
  };
}

/**
 * A lease another credential left behind for good (its holder died, nobody came back with
 * that credential). The acquirer is asked what happened under the payment's reference — without
 * the credential, so never by replaying the authorization: an outcome is recorded with the
 * masked card the lease was taken for; `absent` (the in-flight window has long passed: the
 * lease was abandoned) frees the payment for the next attempt. An acquirer that has not decided
 * yet (pending), or that only its own later report can answer (Adyen's notification), keeps the
 * payment held: 409, ask again later. Either way nothing is authorized twice.
 */
export async function settleAbandoned(
  deps: PaymentDeps,
  ctx: PaymentContext,
  acquirer: Authorizer,
  current: Payment,
  facts: RequestFacts,
): Promise<Payment | 'released'> {
  const answer = await recoverWithTimeout(
    acquirer,
    {
      operation: 'AUTHORIZE',
      reference: current.paymentRef,
      ...(current.processorReference ? { acknowledged: current.processorReference } : {}),
    },
    deps.settings.authorizerTimeoutMs,
  );
  if (answer.kind === 'absent' && !current.processorReference) {
    await deps.payments.release(current, current.leaseId!, current.leaseFrom!, deps.now()).catch((error: unknown) => {
      if (!(error instanceof StoreConflictError)) throw error; // someone else moved first: fine
    });
    facts.logger.info('abandoned lease released: the acquirer performed nothing', { paymentRef: current.paymentRef });
    return 'released';
  }
  if (answer.kind !== 'known' || answer.outcome.kind === 'pending') {
    facts.logger.info('abandoned lease kept: the processor has not decided it yet', { paymentRef: current.paymentRef, answer: answer.kind });
    throw new PaymentStateConflictError('An earlier attempt of this payment is still being decided by the processor; retry later.', {
      retryAfterMs: deps.settings.inFlightMs,
    });
  }
  const patch = {
    ...outcomePatch(answer.outcome, ctx.order, current.paymentRef, deps.now()),
    ...(current.leaseMasked ? { paymentMethod: current.leaseMasked } : {}),
  };
  facts.logger.info('abandoned lease settled from the acquirer’s record', { paymentRef: current.paymentRef, outcome: answer.outcome.kind });
  return writeFinal(deps, ctx.order, current, current.leaseId!, patch, current.leaseCredential);
}
