import type { PaymentCredential } from '../checkout/payment-data.js';
import type { MaskedPaymentMethod, Payment, SrcCheckoutReference } from '../domain/payment.js';
import { AuthorizationUnavailableError, PaymentStateConflictError } from '../errors.js';

import { AcquirerNotReachedError, authorizeWithTimeout, recoverWithTimeout, type AuthorizationRequest, type Authorizer } from '../ports/authorizer.js';
import type { PaymentDeps, RequestFacts } from './deps.js';
import { writeFinal } from './final-write.js';
import { settledOrConflict, takeLease, type LeaseClaim } from './lease.js';
import { outcomePatch, settleAbandoned, type FinalOutcome } from './settle.js';
import type { PaymentContext } from './payment-context.js';
import { needsStepUp } from './three-ds-policy.js';
import { assertLinkOpenForPayment } from '../links/link-cancellation.js';
import type { Authentication, BrowserInfo } from '../ports/three-ds-server.js';
import { recordAuthorization, recordThreeDsResult, recordThreeDsStepUp } from './payment-metrics.js';
import { recoveryEntry } from './recovery-entry.js';
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
  /**
   * 4.10 `{cres}`: the challenge's RReq authenticated the cardholder; authorize with it. The
   * authorization carries it to the processor's external-3DS fields, and its ECI is the one sent.
   */
  authenticated?: { authentication: Authentication; evidence: ThreeDsEvidence };
}

/**
 * SPEC 4.3 steps 8–9, shared by 4.3, 4.4 and 4.10: take the lease, decide on 3DS, call the
 * authorizer with `paymentRef` as the reference, write the final state. At most once to the
 * acquirer (SPEC §3, 4.16):
 * - a failure before the acquirer is called, or one that certainly did not reach it, gives the
 *   lease back (retryable at once);
 * - a failure after it may have been reached (timeout, reset, 5xx, lost answer) parks the lease:
 *   the same credential may come back at once and `recover`s what the acquirer did (by reference,
 *   or by replaying the very request where that is the processor's documented way); no new
 *   authorization is sent while the first could still land, and no other credential steps in
 *   until the lease is abandoned (then its outcome is recorded, or the payment freed);
 * - a `pending` answer (the processor has it and decides later) parks the lease with the
 *   processor's reference: neither AUTHORISED nor FAILED, 502 with Retry-After; the processor's
 *   report (Adyen's notification: settle-from-processor.ts) or a later recovery settles it.
 */
export async function runPayment(deps: PaymentDeps, ctx: PaymentContext, attempt: PaymentAttempt, facts: RequestFacts): Promise<Payment> {
  const { payment } = ctx;
  // Before the lease: a merchant whose processor cannot be set up holds nothing (502, retryable).
  const acquirer = await deps.authorizers.for(ctx.merchant);
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
  // A park that knows the processor has the authorization also queues its recovery (recovery-entry.ts).
  const park = (until: number, error: unknown, processorReference?: string) =>
    giveBack(
      payment,
      () =>
        deps.payments.park(
          payment,
          leaseId,
          deps.now(),
          until,
          processorReference,
          processorReference ? [recoveryEntry(order, payment.paymentRef, undefined, deps.now())] : [],
        ),
      error,
      facts,
    );
  const settle = (outcome: FinalOutcome, leased = taken.leased, evidence = attempt.authenticated?.evidence) =>
    finishWith(deps, ctx, attempt, leaseId, outcome, facts, leased, evidence);
  /** The authorization as sent: with a 3DS authentication, its ECI and the external-3DS fields. */
  const requestWith = (authenticated: PaymentAttempt['authenticated']): AuthorizationRequest => ({
    idempotencyKey: payment.paymentRef,
    orderRef: payment.orderRef,
    credential: attempt.credential,
    brand: attempt.brand,
    eci: authenticated?.authentication.eci ?? attempt.eci,
    amount: payment.amount,
    capture: order.action === 'PURCHASE',
    payerIp: facts.payerIp,
    // 4.10's authentication is a challenge's RReq; a step-up in this request is frictionless.
    ...(authenticated ? { threeDs: authorizationThreeDs(authenticated.authentication, authenticated === attempt.authenticated) } : {}),
  });
  // What a takeover may replay (recovery by the very request): the attempt as it was sent.
  const request = requestWith(attempt.authenticated);

  /**
   * The processor has the authorization and decides later: the lease is parked with its
   * reference. A report that reached the service while this request held the lease was left for
   * the holder (settle-from-processor.ts), so the acquirer is asked once more before answering.
   */
  const awaitProcessor = async (processorReference: string, evidence = attempt.authenticated?.evidence): Promise<Payment> => {
    const until = deps.now() + deps.settings.inFlightMs;
    const wait = new AuthorizationUnavailableError('The processor has not decided this payment yet; retry after the indicated time.', {
      retryAfterMs: until - deps.now(),
    });
    await deps.payments
      .park(payment, leaseId, deps.now(), until, processorReference, [recoveryEntry(order, payment.paymentRef, undefined, deps.now())])
      .catch((error: unknown) => {
        facts.logger.warn('pending payment could not be parked; its lease will expire', { paymentRef: payment.paymentRef, error });
      });
    facts.logger.info('authorization pending at the processor', { paymentRef: payment.paymentRef });
    const again = await recoverWithTimeout(
      acquirer,
      { operation: 'AUTHORIZE', reference: payment.paymentRef, acknowledged: processorReference },
      deps.settings.authorizerTimeoutMs,
    ).catch(() => undefined);
    if (again?.kind === 'known' && again.outcome.kind !== 'pending') return settle(again.outcome, undefined, evidence);
    throw wait;
  };

  // A cancelled payment link takes no money (link-cancellation.ts). Checked after the lease, so a
  // cancel crossing this payment sees it or is seen, and by every holder, takeovers included; a
  // cancel seen is made final first, so it cannot be undone behind this payment's 409. A
  // takeover asks the acquirer first: the link may have been cancelled while the earlier attempt
  // was at the acquirer (a cancel whose re-check or undo failed), and what the acquirer did must
  // be recorded, never given back as STARTED — but with the link cancelled, the request is not
  // handed to a recovery that may replay it (a replay can perform it). Only a failed read keeps
  // a takeover's lease parked.
  const linkRefusal = async (): Promise<PaymentStateConflictError | undefined> => {
    try {
      await assertLinkOpenForPayment(deps.links, order, deps.now());
      return undefined;
    } catch (error) {
      if (error instanceof PaymentStateConflictError) return error;
      return taken.takeover ? park(taken.parkedUntil ?? deps.now(), error) : release(error);
    }
  };

  if (!taken.takeover) {
    const refused = await linkRefusal();
    if (refused) return release(refused);
  } else {
    const parkedUntil = taken.parkedUntil ?? deps.now();
    const acknowledged = taken.leased?.processorReference;
    const refused = await linkRefusal();
    const answer = await recoverWithTimeout(
      acquirer,
      {
        operation: 'AUTHORIZE',
        reference: payment.paymentRef,
        ...(acknowledged ? { acknowledged } : {}),
        ...(refused ? {} : { request }),
      },
      deps.settings.authorizerTimeoutMs,
    ).catch((error: unknown) => park(parkedUntil, error));
    facts.logger.info('acquirer asked before authorizing', { paymentRef: payment.paymentRef, answer: answer.kind, parkedUntil: taken.parkedUntil });
    if (answer.kind === 'known') {
      if (answer.outcome.kind === 'pending') return awaitProcessor(answer.outcome.processorReference);
      return settle(answer.outcome);
    }
    const stillOpen = answer.kind !== 'absent' || acknowledged !== undefined || parkedUntil > deps.now();
    if (stillOpen) {
      const until = Math.max(parkedUntil, deps.now() + (answer.kind === 'absent' ? 0 : deps.settings.inFlightMs));
      const wait = new AuthorizationUnavailableError('The earlier authorization may still reach the acquirer; retry after the indicated time.', {
        retryAfterMs: until - deps.now(),
      });
      return park(until, wait, acknowledged);
    }
    // Absent, and no request could still land: it never arrived.
    if (refused) return release(refused);
  }

  const policy = ctx.merchant?.threeDsPolicy ?? 'risk-based';
  let authenticated = attempt.authenticated;
  if (attempt.methodCompleted || (attempt.sealedForThreeDs && !attempt.authenticated && needsStepUp(policy, attempt.eci, attempt.brand))) {
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

  const authorization = authenticated === attempt.authenticated ? request : requestWith(authenticated);
  facts.logger.info('authorization requested', {
    paymentRef: payment.paymentRef,
    brand: attempt.brand,
    eci: authorization.eci,
    amount: payment.amount,
    threeDs: !!authenticated,
  });
  const outcome = await authorizeWithTimeout(acquirer, authorization, deps.settings.authorizerTimeoutMs).catch((error: unknown) => {
    recordAuthorization(environmentOf(ctx), attempt.brand, 'failed');
    if (error instanceof AcquirerNotReachedError) return release(error);
    const until = deps.now() + deps.settings.inFlightMs;
    return park(until, new AuthorizationUnavailableError(undefined, { cause: error, retryAfterMs: until - deps.now() }));
  });
  if (outcome.kind === 'pending') {
    recordAuthorization(environmentOf(ctx), attempt.brand, outcome);
    return awaitProcessor(outcome.processorReference, authenticated?.evidence);
  }
  return settle(outcome, taken.leased, authenticated?.evidence);
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
  outcome: FinalOutcome,
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
