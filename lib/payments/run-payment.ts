import type { PaymentCredential } from '../checkout/payment-data.js';
import type { MaskedPaymentMethod, Payment } from '../domain/payment.js';
import { nowIso, epochSeconds } from '../repositories/dynamo.js';
import type { FinalPatch, LeaseOrigin, PendingThreeDs } from '../repositories/payment-repository.js';
import { authorizeWithTimeout, lookupWithTimeout, type AuthorizationOutcome } from './authorizer.js';
import type { PaymentDeps, RequestFacts } from './deps.js';
import { writeFinal } from './final-write.js';
import { takeLease } from './lease.js';
import type { PaymentContext } from './payment-context.js';
import { needsStepUp } from './three-ds-policy.js';

export { assertPayable, isSettled } from './lease.js';

export interface PaymentAttempt {
  from: LeaseOrigin;
  credential: PaymentCredential;
  /** Names the credential for the lease (credential-key.ts): a takeover must present the same. */
  credentialKey: string;
  brand: string;
  eci: string | undefined;
  masked: MaskedPaymentMethod;
  /** Replay-guard key of the checkout response (4.3), recorded on the payment. */
  checkoutKey?: string;
  /** The encrypted payload to keep if a 3DS step-up happens; absent → no step-up possible. */
  sealedForThreeDs?: () => Promise<Pick<PendingThreeDs, 'jwe' | 'source'>>;
}

/**
 * SPEC 4.3 steps 8–9, shared by 4.3, 4.4 and 4.10: take the lease, decide on 3DS, call the
 * authorizer with `paymentRef` as idempotency key, write the final state.
 * - Any failure before the acquirer is called gives the lease back (the payment is retryable).
 * - If an earlier attempt may have reached the acquirer (a lease taken over, or a timeout),
 *   the acquirer's `lookup` is asked first and its outcome recorded: never a second call.
 * - An authorizer timeout gives the lease back marked `acquirerAsked` (502, retryable).
 */
export async function runPayment(deps: PaymentDeps, ctx: PaymentContext, attempt: PaymentAttempt, facts: RequestFacts): Promise<Payment> {
  const { payment, order } = ctx;
  const lease = await takeLease(deps, payment, {
    from: attempt.from,
    credential: attempt.credentialKey,
    ...(attempt.checkoutKey ? { checkoutKey: attempt.checkoutKey } : {}),
    ...(facts.payerIp ? { payerIp: facts.payerIp } : {}),
  });
  if (lease.kind === 'settled') return lease.payment;
  const { leaseId } = lease;
  const environment = ctx.merchant?.environment ?? 'production';
  const acquirer = deps.authorizers[environment];
  const giveBack = async (acquirerAsked: boolean, error: unknown): Promise<never> => {
    await deps.payments.release(payment, leaseId, attempt.from, acquirerAsked).catch((releaseError: unknown) => {
      facts.logger.warn('lease release failed; it will expire', { paymentRef: payment.paymentRef, error: releaseError });
    });
    throw error;
  };
  const settle = (outcome: AuthorizationOutcome) => finishWith(deps, ctx, attempt, leaseId, outcome, facts);

  if (lease.taken.takeover || lease.taken.acquirerAsked) {
    const known = await lookupWithTimeout(acquirer, payment.paymentRef, deps.settings.authorizerTimeoutMs).catch((error: unknown) => giveBack(true, error));
    facts.logger.info('acquirer asked before authorizing', { paymentRef: payment.paymentRef, takeover: lease.taken.takeover, known: known !== undefined });
    if (known) return settle(known);
  }

  const policy = ctx.merchant?.threeDsPolicy ?? 'risk-based';
  if (attempt.sealedForThreeDs && needsStepUp(policy, attempt.eci)) {
    const challenge = await stepUp(deps, ctx, attempt, environment, facts).catch((error: unknown) => giveBack(false, error));
    facts.logger.info('payment awaits 3DS', { paymentRef: payment.paymentRef, eci: attempt.eci, policy });
    return writeFinal(deps, payment, leaseId, { state: 'AWAIT_3DS', threeDs: challenge, ...common(attempt) }, attempt.checkoutKey);
  }

  facts.logger.info('authorization requested', { paymentRef: payment.paymentRef, brand: attempt.brand, eci: attempt.eci, amount: payment.amount });
  const request = {
    idempotencyKey: payment.paymentRef,
    credential: attempt.credential,
    brand: attempt.brand,
    eci: attempt.eci,
    amount: payment.amount,
    capture: order.action === 'PURCHASE',
    payerIp: facts.payerIp,
  };
  const outcome = await authorizeWithTimeout(acquirer, request, deps.settings.authorizerTimeoutMs).catch((error: unknown) => giveBack(true, error));
  return settle(outcome);
}

async function stepUp(deps: PaymentDeps, ctx: PaymentContext, attempt: PaymentAttempt, environment: 'sandbox' | 'production', facts: RequestFacts) {
  const { payment } = ctx;
  const challenge = await deps.threeDsServers[environment].startChallenge(facts.baseUrl, payment.orderRef, payment.paymentRef);
  const sealed = await attempt.sealedForThreeDs!();
  await deps.payments.putPendingThreeDs(payment.orderRef, payment.paymentRef, {
    ...sealed,
    transactionId: challenge.transactionId,
    environment,
    expiresAt: epochSeconds(deps.now()) + deps.settings.pendingThreeDsSeconds,
  });
  return challenge;
}

async function finishWith(deps: PaymentDeps, ctx: PaymentContext, attempt: PaymentAttempt, leaseId: string, outcome: AuthorizationOutcome, facts: RequestFacts): Promise<Payment> {
  const { payment, order } = ctx;
  const patch: FinalPatch = outcome.approved
    ? { ...common(attempt), state: order.action === 'PURCHASE' ? 'CAPTURED' : 'AUTHORISED', authorization: { code: outcome.code, resultCode: outcome.resultCode, at: nowIso() } }
    : { ...common(attempt), state: 'FAILED', failure: { code: outcome.declineCode, reason: outcome.reason } };
  const final = await writeFinal(deps, payment, leaseId, patch, attempt.checkoutKey);
  facts.logger.info('payment finished', { paymentRef: payment.paymentRef, state: final.state, brand: attempt.brand });
  if (attempt.from === 'AWAIT_3DS') await deps.payments.deletePendingThreeDs(payment.orderRef, payment.paymentRef).catch(() => undefined);
  return final;
}

const common = (attempt: PaymentAttempt) => ({ paymentMethod: attempt.masked, ...(attempt.eci ? { eci: attempt.eci } : {}) });

/** Ends a payment as FAILED without calling the authorizer (e.g. 3DS failed or expired). */
export async function failWithoutAuthorization(
  deps: PaymentDeps,
  payment: Payment,
  claim: { from: LeaseOrigin; credentialKey: string },
  failure: { code: string; reason: string },
  facts: RequestFacts,
): Promise<Payment> {
  const lease = await takeLease(deps, payment, { from: claim.from, credential: claim.credentialKey });
  if (lease.kind === 'settled') return lease.payment;
  const failed = await writeFinal(deps, payment, lease.leaseId, { state: 'FAILED', failure });
  await deps.payments.deletePendingThreeDs(payment.orderRef, payment.paymentRef).catch(() => undefined);
  facts.logger.info('payment failed without authorization', { paymentRef: payment.paymentRef, code: failure.code });
  return failed;
}
