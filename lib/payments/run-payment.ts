import { randomUUID } from 'node:crypto';
import type { PaymentCredential } from '../checkout/payment-data.js';
import type { MaskedPaymentMethod, Payment } from '../domain/payment.js';
import { AuthorizationUnavailableError, PaymentStateConflictError } from '../errors.js';
import { ConditionFailed, epochSeconds, nowIso } from '../repositories/dynamo.js';
import type { FinalPatch, LeaseOrigin, PendingThreeDs } from '../repositories/payment-repository.js';
import { authorizeWithTimeout } from './authorizer.js';
import type { PaymentDeps, RequestFacts } from './deps.js';
import type { PaymentContext } from './payment-context.js';
import { needsStepUp } from './three-ds-policy.js';

export interface PaymentAttempt {
  from: LeaseOrigin;
  credential: PaymentCredential;
  brand: string;
  eci: string | undefined;
  masked: MaskedPaymentMethod;
  /** Replay-guard key of the checkout response (4.3), recorded on the payment. */
  checkoutKey?: string;
  /** The encrypted payload to keep if a 3DS step-up happens; absent → no step-up possible. */
  sealedForThreeDs?: () => Promise<Pick<PendingThreeDs, 'jwe' | 'source'>>;
}

/**
 * SPEC 4.3 steps 8–9, shared by 4.3, 4.4 and 4.10: take the lease (a conditional write:
 * only one attempt at a time, whatever the concurrency), decide on 3DS, call the
 * authorizer with `paymentRef` as idempotency key, write the final state. A timeout gives
 * the lease back (502, retryable); a crash leaves a lease that expires and can be taken over.
 */
export async function runPayment(deps: PaymentDeps, ctx: PaymentContext, attempt: PaymentAttempt, facts: RequestFacts): Promise<Payment> {
  const { payment, order } = ctx;
  const leaseId = randomUUID();
  const now = deps.now();
  try {
    await deps.payments.acquireLease(payment, {
      from: attempt.from,
      leaseId,
      leaseUntil: now + deps.settings.leaseMs,
      now,
      ...(attempt.checkoutKey ? { checkoutKey: attempt.checkoutKey } : {}),
      ...(facts.payerIp ? { payerIp: facts.payerIp } : {}),
    });
  } catch (error) {
    if (error instanceof ConditionFailed) return settledOrConflict(deps, payment, attempt.checkoutKey);
    throw error;
  }

  const finish = (patch: FinalPatch) => finishOrSettled(deps, payment, leaseId, patch, attempt.checkoutKey);
  // An unavailable 3DS server or acquirer gives the lease back: 502, and the payment is retryable.
  const orRelease = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof AuthorizationUnavailableError) {
        await deps.payments.release(payment, leaseId, attempt.from).catch((releaseError: unknown) => {
          facts.logger.warn('lease release failed; it will expire', { paymentRef: payment.paymentRef, error: releaseError });
        });
      }
      throw error;
    }
  };
  const environment = ctx.merchant?.environment ?? 'production';
  const policy = ctx.merchant?.threeDsPolicy ?? 'risk-based';
  if (attempt.sealedForThreeDs && needsStepUp(policy, attempt.eci)) {
    const challenge = await orRelease(() => deps.threeDsServers[environment].startChallenge(facts.baseUrl, payment.orderRef, payment.paymentRef));
    const sealed = await attempt.sealedForThreeDs();
    await deps.payments.putPendingThreeDs(payment.orderRef, payment.paymentRef, {
      ...sealed,
      transactionId: challenge.transactionId,
      environment,
      expiresAt: epochSeconds(now) + deps.settings.pendingThreeDsSeconds,
    });
    facts.logger.info('payment awaits 3DS', { paymentRef: payment.paymentRef, eci: attempt.eci, policy });
    return finish({ state: 'AWAIT_3DS', threeDs: challenge, paymentMethod: attempt.masked, ...(attempt.eci ? { eci: attempt.eci } : {}) });
  }

  facts.logger.info('authorization requested', { paymentRef: payment.paymentRef, brand: attempt.brand, eci: attempt.eci, amount: payment.amount });
  const outcome = await orRelease(() =>
    authorizeWithTimeout(
      deps.authorizers[environment],
      {
        idempotencyKey: payment.paymentRef,
        credential: attempt.credential,
        brand: attempt.brand,
        eci: attempt.eci,
        amount: payment.amount,
        capture: order.action === 'PURCHASE',
        payerIp: facts.payerIp,
      },
      deps.settings.authorizerTimeoutMs,
    ),
  );

  const common = { paymentMethod: attempt.masked, ...(attempt.eci ? { eci: attempt.eci } : {}) };
  const final = outcome.approved
    ? await finish({
        ...common,
        state: order.action === 'PURCHASE' ? 'CAPTURED' : 'AUTHORISED',
        authorization: { code: outcome.code, resultCode: outcome.resultCode, at: nowIso() },
      })
    : await finish({ ...common, state: 'FAILED', failure: { code: outcome.declineCode, reason: outcome.reason } });
  facts.logger.info('payment finished', { paymentRef: payment.paymentRef, state: final.state, brand: attempt.brand });
  if (attempt.from === 'AWAIT_3DS') await deps.payments.deletePendingThreeDs(payment.orderRef, payment.paymentRef).catch(() => undefined);
  return final;
}

/** Ends a payment as FAILED without calling the authorizer (e.g. 3DS failed or expired). */
export async function failWithoutAuthorization(
  deps: PaymentDeps,
  payment: Payment,
  from: LeaseOrigin,
  failure: { code: string; reason: string },
  facts: RequestFacts,
): Promise<Payment> {
  const leaseId = randomUUID();
  const now = deps.now();
  try {
    await deps.payments.acquireLease(payment, { from, leaseId, leaseUntil: now + deps.settings.leaseMs, now });
  } catch (error) {
    if (error instanceof ConditionFailed) return settledOrConflict(deps, payment);
    throw error;
  }
  const failed = await finishOrSettled(deps, payment, leaseId, { state: 'FAILED', failure });
  await deps.payments.deletePendingThreeDs(payment.orderRef, payment.paymentRef).catch(() => undefined);
  facts.logger.info('payment failed without authorization', { paymentRef: payment.paymentRef, code: failure.code });
  return failed;
}

async function finishOrSettled(deps: PaymentDeps, payment: Payment, leaseId: string, patch: FinalPatch, checkoutKey?: string) {
  try {
    return await deps.payments.finish(payment, leaseId, patch);
  } catch (error) {
    if (error instanceof ConditionFailed) return settledOrConflict(deps, payment, checkoutKey);
    throw error;
  }
}

/** We lost a race: another attempt holds the lease or already finished. */
async function settledOrConflict(deps: PaymentDeps, payment: Payment, checkoutKey?: string): Promise<Payment> {
  const current = await deps.payments.get(payment.orderRef, payment.paymentRef);
  if (current && checkoutKey && current.checkoutKey === checkoutKey && isSettled(current)) return current;
  const detail = current?.state === 'PROCESSING' ? 'This payment is being processed; retry shortly.' : 'This payment cannot be processed in its current state.';
  throw new PaymentStateConflictError(detail);
}

/** SPEC 4.3 step 7: only a STARTED payment (or one whose lease may be taken over) can be paid. */
export function assertPayable(payment: Payment): void {
  if (payment.state !== 'STARTED' && payment.state !== 'PROCESSING') {
    throw new PaymentStateConflictError(`The payment is ${payment.state}; it cannot be paid again.`);
  }
}

export function isSettled(payment: Payment): boolean {
  return payment.state !== 'STARTED' && payment.state !== 'PROCESSING';
}
