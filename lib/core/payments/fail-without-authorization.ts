import type { Payment, ThreeDsEvidence } from '../domain/payment.js';

import { lookupWithTimeout } from '../ports/authorizer.js';
import type { PaymentDeps, RequestFacts } from './deps.js';
import { writeFinal } from './final-write.js';
import { settledOrConflict, takeLease } from './lease.js';
import type { PaymentContext } from './payment-context.js';
import { giveBack } from './run-payment.js';
import { outcomePatch } from './settle.js';
import type { LeaseOrigin } from '../domain/lease-rule.js';

/**
 * Ends a payment as FAILED without calling the authorizer (3DS failed or expired) — unless
 * an earlier attempt may have reached the acquirer: then its recorded outcome wins.
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
  const acquirer = deps.authorizers[ctx.merchant?.environment ?? 'production'];
  const lease = await takeLease(deps, payment, { from: claim.from, credential: claim.credentialKey });
  if (lease.kind === 'settled') return lease.payment;
  if (lease.kind === 'abandoned') return settledOrConflict(deps, lease.current, claim.credentialKey, deps.now());
  if (lease.taken.takeover) {
    const known = await lookupWithTimeout(acquirer, payment.paymentRef, deps.settings.authorizerTimeoutMs).catch((error: unknown) =>
      giveBack(payment, () => deps.payments.park(payment, lease.leaseId, deps.now(), lease.taken.parkedUntil ?? deps.now()), error, facts),
    );
    if (known) {
      facts.logger.info('acquirer outcome recorded instead of a 3DS failure', { paymentRef: payment.paymentRef });
      const patch = {
        ...outcomePatch(known, order, payment.paymentRef, deps.now()),
        ...(payment.paymentMethod ? { paymentMethod: payment.paymentMethod } : {}),
      };
      return writeFinal(deps, order, payment, lease.leaseId, patch, claim.credentialKey, lease.taken.leased);
    }
  }
  const patch = { state: 'FAILED' as const, failure, ...(evidence ? { authentication: evidence } : {}) };
  const failed = await writeFinal(deps, order, payment, lease.leaseId, patch, claim.credentialKey, lease.taken.leased);
  await deps.payments.deletePendingThreeDs(payment.orderRef, payment.paymentRef).catch(() => undefined);
  facts.logger.info('payment failed without authorization', { paymentRef: payment.paymentRef, code: failure.code });
  return failed;
}
