import type { Payment, ThreeDsEvidence } from '../domain/payment.js';
import { AuthorizationUnavailableError } from '../errors.js';

import { recoverWithTimeout } from '../ports/authorizer.js';
import type { PaymentDeps, RequestFacts } from './deps.js';
import { writeFinal } from './final-write.js';
import { settledOrConflict, takeLease } from './lease.js';
import type { PaymentContext } from './payment-context.js';
import { giveBack } from './run-payment.js';
import { outcomePatch } from './settle.js';
import { recoveryEntry } from './recovery-entry.js';
import type { LeaseOrigin } from '../domain/lease-rule.js';

/**
 * Ends a payment as FAILED without calling the authorizer (3DS failed or expired) — unless
 * an earlier attempt may have reached the acquirer: then its outcome wins, and while the
 * acquirer cannot say yet (the earlier request may still land, it is pending, or only its own
 * later report can tell) the payment stays parked: 502, retry later, never FAILED over an
 * authorization that may exist.
 */
export async function failWithoutAuthorization(
  deps: PaymentDeps,
  ctx: PaymentContext,
  claim: { from: LeaseOrigin; credentialKey: string },
  failure: { code: string; reason: string },
  facts: RequestFacts,
  /** What the 3DS outcome keeps (ids, transStatus and its reason), when there was one. */
  evidence?: ThreeDsEvidence,
): Promise<Payment> {
  const { payment, order } = ctx;
  // Before the lease, like runPayment: a merchant whose processor cannot be set up holds nothing.
  const acquirer = await deps.authorizers.for(ctx.merchant);
  const lease = await takeLease(deps, payment, { from: claim.from, credential: claim.credentialKey });
  if (lease.kind === 'settled') return lease.payment;
  if (lease.kind === 'abandoned') return settledOrConflict(deps, lease.current, claim.credentialKey, deps.now());
  if (lease.taken.takeover) {
    const parkedUntil = lease.taken.parkedUntil ?? deps.now();
    const acknowledged = lease.taken.leased?.processorReference;
    const recovery = acknowledged ? [recoveryEntry(order, payment.paymentRef, undefined, deps.now())] : [];
    const park = (until: number, error: unknown) =>
      giveBack(payment, () => deps.payments.park(payment, lease.leaseId, deps.now(), until, acknowledged, recovery), error, facts);
    const answer = await recoverWithTimeout(
      acquirer,
      { operation: 'AUTHORIZE', reference: payment.paymentRef, ...(acknowledged ? { acknowledged } : {}) },
      deps.settings.authorizerTimeoutMs,
    ).catch((error: unknown) => park(parkedUntil, error));
    if (answer.kind === 'known' && answer.outcome.kind !== 'pending') {
      facts.logger.info('acquirer outcome recorded instead of a 3DS failure', { paymentRef: payment.paymentRef });
      const patch = {
        ...outcomePatch(answer.outcome, order, payment.paymentRef, deps.now()),
        ...(payment.paymentMethod ? { paymentMethod: payment.paymentMethod } : {}),
      };
      return writeFinal(deps, order, payment, lease.leaseId, patch, claim.credentialKey, lease.taken.leased);
    }
    if (answer.kind !== 'absent' || acknowledged !== undefined || parkedUntil > deps.now()) {
      const until = Math.max(parkedUntil, deps.now() + (answer.kind === 'absent' ? 0 : deps.settings.inFlightMs));
      return park(
        until,
        new AuthorizationUnavailableError('An earlier authorization of this payment may still be decided by the processor; retry after the indicated time.', {
          retryAfterMs: until - deps.now(),
        }),
      );
    }
  }
  const patch = { state: 'FAILED' as const, failure, ...(evidence ? { authentication: evidence } : {}) };
  const failed = await writeFinal(deps, order, payment, lease.leaseId, patch, claim.credentialKey, lease.taken.leased);
  await deps.payments.deletePendingThreeDs(payment.orderRef, payment.paymentRef).catch(() => undefined);
  facts.logger.info('payment failed without authorization', { paymentRef: payment.paymentRef, code: failure.code });
  return failed;
}
