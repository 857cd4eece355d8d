import type { PaymentCredential } from '../checkout/payment-data.js';
import type { MaskedPaymentMethod, Payment, SrcCheckoutReference } from '../domain/payment.js';
import { AuthorizationUnavailableError, PaymentStateConflictError } from '../errors.js';

import {
  AcquirerNotReachedError,
  authorizeWithTimeout,
  lookupWithTimeout,
  type AuthorizationOutcome,
  type AuthorizationRequest,
  type Authorizer,
} from '../ports/authorizer.js';
import type { PaymentDeps, RequestFacts } from './deps.js';
import { writeFinal } from './final-write.js';
import { settledOrConflict, takeLease, type LeaseClaim } from './lease.js';
import { outcomePatch, settleAbandoned } from './settle.js';
import type { PaymentContext } from './payment-context.js';
import { needsStepUp } from './three-ds-policy.js';
import { assertLinkOpenForPayment } from '../links/link-cancellation.js';
import type { Authentication, BrowserInfo } from '../ports/three-ds-server.js';
import { recordAuthorization, recordThreeDsResult, recordThreeDsStepUp } from './payment-metrics.js';
import type { LeaseOrigin } from '../domain/lease-rule.js';
import type { ThreeDsEvidence } from '../domain/payment.js';
import type { LeaseTaken, PendingThreeDs } from '../ports/payment-store.js';
import { stepUp, type StepOutcome } from './three-ds/step-up.js';
import { authorizationThreeDs } from './three-ds/evidence.js';

export { assertPayable, settledWith } from './lease.js';

export interface PaymentAttempt {
  from: LeaseOrigin;
  credential: PaymentCredential;
  /** Names the credential for the lease (credential-key.ts): a takeover must present the same. */
  credentialKey: string;
  brand: string;
  eci: string | undefined;
  masked: MaskedPaymentMethod;
  /** 4.3 only: the SRC checkout's ids, recorded on the payment for the network's confirmations. */
  srcCheckout?: SrcCheckoutReference;
  /** The encrypted payload to keep if a 3DS step-up happens; absent → no step-up possible. */
  sealedForThreeDs?: () => Promise<Pick<PendingThreeDs, 'jwe' | 'source'>>;
  /** The shopper's browser, for an EMV 3DS step-up's AReq (4.3/4.4 `browserInfo`, 4.10 after the 3DS Method). */
  browser?: BrowserInfo | undefined;
  /** 4.10 `{threeDSCompInd}`: the 3DS Method ran; the prepared attempt's AReq goes now. */
  methodCompleted?: 'Y' | 'N';
  /** 4.10 `{cres}`: the challenge's RReq authenticated the cardholder; authorize with it. */
  authenticated?: { authentication: Authentication; evidence: ThreeDsEvidence };
}

/**
 * SPEC 4.3 steps 8–9, shared by 4.3, 4.4 and 4.10: take the lease, decide on 3DS, call the
 * authorizer with `paymentRef` as idempotency key, write the final state. At most once to
 * the acquirer (SPEC §3):
 * - a failure before the acquirer is called gives the lease back (retryable at once);
 * - a failure after it may have been reached (timeout, lost answer) parks the lease: the same
 *   credential may come back at once, asks `lookup` and records what the acquirer did; no new
 *   authorization is sent while the first could still land, and no other credential steps in
 *   until the lease is abandoned (then its outcome is recorded, or the payment freed).
 */
export async function runPayment(deps: PaymentDeps, ctx: PaymentContext, attempt: PaymentAttempt, facts: RequestFacts): Promise<Payment> {
  const { payment } = ctx;
  const acquirer = deps.authorizers[ctx.merchant?.environment ?? 'production'];
  const claim: LeaseClaim = {
    from: attempt.from,
    credential: attempt.credentialKey,
    masked: attempt.masked,
    ...(attempt.srcCheckout ? { srcCheckout: attempt.srcCheckout } : {}),
    ...(facts.payerIp ? { payerIp: facts.payerIp } : {}),
  };
  let lease = await takeLease(deps, payment, claim);
  if (lease.kind === 'abandoned') {
    const rescued = await settleAbandoned(deps, ctx, acquirer, lease.current, facts);
    if (rescued !== 'released') return settledOrConflict(deps, rescued, attempt.credentialKey, deps.now());
    lease = await takeLease(deps, payment, claim);
  }
  if (lease.kind === 'settled') return lease.payment;
  if (lease.kind === 'abandoned') return settledOrConflict(deps, lease.current, attempt.credentialKey, deps.now());
  return holdAndPay(deps, ctx, attempt, acquirer, lease.leaseId, lease.taken, facts);
}

async function holdAndPay(
  deps: PaymentDeps,
  ctx: PaymentContext,
  attempt: PaymentAttempt,
  acquirer: Authorizer,
  leaseId: string,
  taken: LeaseTaken,
  facts: RequestFacts,
): Promise<Payment> {
  const { payment, order } = ctx;
  const release = (error: unknown) => giveBack(payment, () => deps.payments.release(payment, leaseId, attempt.from, deps.now()), error, facts);
  const park = (until: number, error: unknown) => giveBack(payment, () => deps.payments.park(payment, leaseId, deps.now(), until), error, facts);
  const settle = (outcome: AuthorizationOutcome, evidence?: ThreeDsEvidence) => finishWith(deps, ctx, attempt, leaseId, outcome, facts, taken.leased, evidence);

  // A cancelled payment link takes no money (link-cancellation.ts). Checked after the lease, so a
  // cancel crossing this payment sees it or is seen, and by every holder, takeovers included; a
  // cancel seen is made final first, so it cannot be undone behind this payment's 409. A
  // takeover checks it only after the acquirer's lookup: the link may have been cancelled while
  // the earlier attempt was at the acquirer (a cancel whose re-check or undo failed), and what
  // the acquirer did must be recorded, never given back as STARTED. Only a failed read keeps a
  // takeover's lease parked.
  const linkOpen = () =>
    assertLinkOpenForPayment(deps.links, order, deps.now()).catch((error: unknown) =>
      taken.takeover && !(error instanceof PaymentStateConflictError) ? park(taken.parkedUntil ?? deps.now(), error) : release(error),
    );

  if (!taken.takeover) await linkOpen();
  else {
    const parkedUntil = taken.parkedUntil ?? deps.now();
    const known = await lookupWithTimeout(acquirer, payment.paymentRef, deps.settings.authorizerTimeoutMs).catch((error: unknown) => park(parkedUntil, error));
    facts.logger.info('acquirer asked before authorizing', { paymentRef: payment.paymentRef, known: known !== undefined, parkedUntil: taken.parkedUntil });
    if (known) return settle(known);
    if (parkedUntil > deps.now()) {
      const wait = new AuthorizationUnavailableError('The earlier authorization may still reach the acquirer; retry after the indicated time.', {
        retryAfterMs: parkedUntil - deps.now(),
      });
      return park(parkedUntil, wait);
    }
    await linkOpen();
  }

  const policy = ctx.merchant?.threeDsPolicy ?? 'risk-based';
  let authenticated = attempt.authenticated;
  if (attempt.methodCompleted || (attempt.sealedForThreeDs && needsStepUp(policy, attempt.eci, attempt.brand))) {
    const step: StepOutcome = await stepUp(
      deps,
      ctx,
      {
        credential: attempt.credential,
        brand: attempt.brand,
        owner: attempt.credentialKey,
        browser: attempt.browser,
        sealed: attempt.sealedForThreeDs,
        methodCompleted: attempt.methodCompleted,
      },
      facts,
    ).catch(release);
    if (step.kind === 'await') {
      facts.logger.info('payment awaits 3DS', { paymentRef: payment.paymentRef, eci: attempt.eci, policy, step: step.threeDs.method ? 'method' : 'challenge' });
      const waiting = await writeFinal(
        deps,
        ctx.order,
        payment,
        leaseId,
        { state: 'AWAIT_3DS', threeDs: step.threeDs, ...masked(attempt) },
        attempt.credentialKey,
        taken.leased,
      );
      if (step.threeDs.acsUrl) recordThreeDsStepUp(environmentOf(ctx));
      return waiting;
    }
    if (step.kind === 'failed') {
      const failed = await writeFinal(
        deps,
        ctx.order,
        payment,
        leaseId,
        { state: 'FAILED', failure: step.failure, ...masked(attempt), ...(step.evidence ? { authentication: step.evidence } : {}) },
        attempt.credentialKey,
        taken.leased,
      );
      recordThreeDsResult(environmentOf(ctx), 'failed');
      facts.logger.info('payment failed its 3DS authentication', { paymentRef: payment.paymentRef, reason: step.failure.reason });
      await deps.payments.deletePendingThreeDs(payment.orderRef, payment.paymentRef).catch(() => undefined);
      return failed;
    }
    recordThreeDsResult(environmentOf(ctx), 'authenticated');
    authenticated = step;
  }

  const eci = authenticated?.authentication.eci ?? attempt.eci;
  facts.logger.info('authorization requested', { paymentRef: payment.paymentRef, brand: attempt.brand, eci, amount: payment.amount, threeDs: !!authenticated });
  const request: AuthorizationRequest = {
    idempotencyKey: payment.paymentRef,
    credential: attempt.credential,
    brand: attempt.brand,
    eci,
    amount: payment.amount,
    capture: order.action === 'PURCHASE',
    payerIp: facts.payerIp,
    ...(authenticated ? { threeDs: authorizationThreeDs(authenticated.authentication) } : {}),
  };
  const outcome = await authorizeWithTimeout(acquirer, request, deps.settings.authorizerTimeoutMs).catch((error: unknown) => {
    recordAuthorization(environmentOf(ctx), attempt.brand, 'failed');
    if (error instanceof AcquirerNotReachedError) return release(error);
    const until = deps.now() + deps.settings.inFlightMs;
    return park(until, new AuthorizationUnavailableError(undefined, { cause: error, retryAfterMs: until - deps.now() }));
  });
  return settle(outcome, authenticated?.evidence);
}

/** Gives the lease back or parks it, then fails with the original error (a failed write only logs). */
export async function giveBack(payment: Payment, write: () => Promise<void>, error: unknown, facts: RequestFacts): Promise<never> {
  await write().catch((writeError: unknown) => {
    facts.logger.warn('lease could not be given back or parked; it will expire', { paymentRef: payment.paymentRef, error: writeError });
  });
  throw error;
}

async function finishWith(
  deps: PaymentDeps,
  ctx: PaymentContext,
  attempt: PaymentAttempt,
  leaseId: string,
  outcome: AuthorizationOutcome,
  facts: RequestFacts,
  leased: Payment | undefined,
  evidence: ThreeDsEvidence | undefined,
): Promise<Payment> {
  const { payment, order } = ctx;
  const patch = {
    ...outcomePatch(outcome, order, payment.paymentRef, deps.now()),
    ...masked(attempt),
    // The authenticated ECI and the evidence; never the authentication value (SPEC 4.17).
    ...(evidence ? { authentication: evidence, ...(evidence.eci ? { eci: evidence.eci } : {}) } : {}),
  };
  const final = await writeFinal(deps, order, payment, leaseId, patch, attempt.credentialKey, leased);
  recordAuthorization(environmentOf(ctx), attempt.brand, outcome);
  facts.logger.info('payment finished', { paymentRef: payment.paymentRef, state: final.state, brand: attempt.brand });
  if (attempt.from === 'AWAIT_3DS' || evidence) await deps.payments.deletePendingThreeDs(payment.orderRef, payment.paymentRef).catch(() => undefined);
  return final;
}

const environmentOf = (ctx: PaymentContext) => ctx.merchant?.environment ?? 'production';
const masked = (attempt: PaymentAttempt) => ({
  paymentMethod: attempt.masked,
  ...(attempt.eci ? { eci: attempt.eci } : {}),
  ...(attempt.srcCheckout ? { srcCheckout: attempt.srcCheckout } : {}),
});
