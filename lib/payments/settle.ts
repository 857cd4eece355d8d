import type { OrderAction } from '../domain/order.js';
import type { Payment } from '../domain/payment.js';
import { ConditionFailed, nowIso } from '../repositories/dynamo.js';
import type { FinalPatch } from '../repositories/payment-repository.js';
import { lookupWithTimeout, type AuthorizationOutcome, type Authorizer } from './authorizer.js';
import type { PaymentDeps, RequestFacts } from './deps.js';
import { writeFinal } from './final-write.js';
import type { PaymentContext } from './payment-context.js';

/** The final state an acquirer's answer means for this order's action. */
export function outcomePatch(outcome: AuthorizationOutcome, action: OrderAction): FinalPatch {
  return outcome.approved
    ? { state: action === 'PURCHASE' ? 'CAPTURED' : 'AUTHORISED', authorization: { code: outcome.code, resultCode: outcome.resultCode, at: nowIso() } }
    : { state: 'FAILED', failure: { code: outcome.declineCode, reason: outcome.reason } };
}

/**
 * A lease another credential left behind for good (its holder died, nobody came back with
 * that credential). The acquirer is asked what happened under the payment's key: an outcome
 * is recorded with the masked card the lease was taken for; none frees the payment for the
 * next attempt. Either way nothing is authorized twice, and no payment stays stuck.
 */
export async function settleAbandoned(deps: PaymentDeps, ctx: PaymentContext, acquirer: Authorizer, current: Payment, facts: RequestFacts): Promise<Payment | 'released'> {
  const known = await lookupWithTimeout(acquirer, current.paymentRef, deps.settings.authorizerTimeoutMs);
  if (!known) {
    await deps.payments.release(current, current.leaseId!, current.leaseFrom!).catch((error: unknown) => {
      if (!(error instanceof ConditionFailed)) throw error; // someone else moved first: fine
    });
    facts.logger.info('abandoned lease released: the acquirer performed nothing', { paymentRef: current.paymentRef });
    return 'released';
  }
  const patch = { ...outcomePatch(known, ctx.order.action), ...(current.leaseMasked ? { paymentMethod: current.leaseMasked } : {}) };
  facts.logger.info('abandoned lease settled from the acquirer’s record', { paymentRef: current.paymentRef, approved: known.approved });
  return writeFinal(deps, current, current.leaseId!, patch, current.leaseCredential);
}
