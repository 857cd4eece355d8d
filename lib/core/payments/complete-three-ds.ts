import type { Principal } from '../auth/principal.js';
import { decryptCheckoutJwe } from '../checkout/jwe.js';
import { parseDecryptedPayload } from '../checkout/payment-data.js';
import type { Payment, ThreeDsEvidence } from '../domain/payment.js';
import { AuthorizationUnavailableError, DomainError, InvalidRequestError, PaymentStateConflictError } from '../errors.js';
import type { PendingThreeDs } from '../ports/payment-store.js';
import { THREE_DS_BRANDS, type CardBrand, type ChallengeReference } from '../ports/three-ds-server.js';
import { brandOf } from './brand.js';
import type { PaymentDeps, RequestFacts } from './deps.js';
import { maskPaymentMethod } from './masking.js';
import { loadPaymentContext, type PaymentContext } from './payment-context.js';
import type { PaymentIds } from './pay-with-click-to-pay.js';
import { threeDsCredentialKey, threeDsMethodCredentialKey } from './credential-key.js';
import { failWithoutAuthorization } from './fail-without-authorization.js';
import { runPayment, settledWith } from './run-payment.js';
import { parseCres } from './cres.js';
import { recordThreeDsResult } from './payment-metrics.js';
import { browserInfoOf, type PageBrowserInfo } from '../domain/browser-info.js';
import { callThreeDsServer } from './three-ds/calls.js';
import { resultOutcome } from './three-ds/step-up.js';

/**
 * SPEC 4.10, allowed only in AWAIT_3DS, in one of two shapes:
 * - `{ threeDSCompInd, browserInfo }` after the 3DS Method (the payment shows `threeDs.method`):
 *   the prepared attempt's AReq goes now (lib/core/payments/three-ds/step-up.ts) — frictionless
 *   authorizes in this request, a challenge answers AWAIT_3DS with the CReq, a refusal FAILED;
 * - `{ cres }` after the challenge: the cres only names the challenge (both transaction ids must
 *   match the attempt's); the verdict is the 3DS Server's, the RReq it received from the ACS. A
 *   cres that contradicts it is logged, never believed. Then the kept JWE is decrypted again
 *   through KMS and the payment authorized with the authentication, or failed.
 */
export type CompleteThreeDsInput = { cres: string } | { threeDSCompInd: 'Y' | 'N'; browserInfo: PageBrowserInfo };

export async function completeThreeDs(
  deps: PaymentDeps,
  principal: Principal,
  ids: PaymentIds,
  input: CompleteThreeDsInput,
  facts: RequestFacts,
): Promise<Payment> {
  const ctx = await loadPaymentContext(deps, principal, ids, facts.readAhead);
  return 'cres' in input ? completeChallenge(deps, ctx, input.cres, facts) : continueAfterMethod(deps, ctx, input, facts);
}

async function completeChallenge(deps: PaymentDeps, ctx: PaymentContext, cresValue: string, facts: RequestFacts): Promise<Payment> {
  const { orderRef, paymentRef } = ctx.payment;
  const cres = parseCres(cresValue);
  const transactionId = cres.threeDSServerTransID;
  if (settledWith(ctx.payment, threeDsCredentialKey(transactionId))) return ctx.payment; // the same cres again
  assertWaiting(ctx.payment);

  const pending = await deps.payments.getPendingThreeDs(orderRef, paymentRef, deps.now());
  if (pending && (pending.transactionId !== transactionId || pending.acsTransactionId !== cres.acsTransID)) throw otherChallenge();
  const credentialKey = threeDsCredentialKey(pending?.transactionId ?? transactionId);
  const environment = ctx.merchant?.environment ?? 'production';
  const fail = (failure: { code: string; reason: string }, evidence?: ThreeDsEvidence) =>
    failWithoutAuthorization(deps, ctx, { from: 'AWAIT_3DS', credentialKey }, failure, facts, evidence);
  if (!pending) return fail({ code: 'THREE_DS_EXPIRED', reason: 'The 3DS challenge expired' }).then(counted(() => recordThreeDsResult(environment, 'expired')));
  if (pending.phase !== undefined && pending.phase !== 'challenge') throw new PaymentStateConflictError('No 3DS challenge is running for this payment.');

  const server = deps.threeDsServers[pending.environment === 'sandbox' ? 'sandbox' : 'production'];
  const ref: ChallengeReference = {
    transactionId: pending.transactionId,
    acsTransactionId: pending.acsTransactionId!,
    messageVersion: pending.messageVersion ?? '2.2.0',
    brand: threeDsBrand(pending, ctx.payment),
  };
  const check = server.checkCres(cresValue, ref);
  if (check.kind === 'malformed')
    throw new InvalidRequestError('The cres is not a valid challenge result.', { errors: [{ path: 'cres', message: 'Not a CRes' }] });
  if (check.kind === 'other-challenge') throw otherChallenge();

  const result = await callThreeDsServer('/postauth', deps.settings.threeDs.resultTimeoutMs, (signal) => server.challengeResult(ref, signal)).catch(
    (error: unknown) => {
      if (error instanceof DomainError) throw error;
      throw new AuthorizationUnavailableError('The 3DS result could not be read; retry.', { cause: error });
    },
  );
  if (result.kind === 'pending') throw new PaymentStateConflictError('The 3DS challenge has not been completed yet.');
  if (result.kind === 'expired')
    return fail({ code: 'THREE_DS_EXPIRED', reason: 'The 3DS challenge result is no longer available' }).then(
      counted(() => recordThreeDsResult(environment, 'expired')),
    );
  const outcome = resultOutcome(result, pending);
  const verdict = outcome.kind === 'authenticated' ? outcome.authentication.transStatus : result.kind === 'failed' ? result.transStatus : '';
  if (check.transStatus !== verdict) {
    facts.logger.warn('the cres contradicts the 3DS Server’s result (RReq); the RReq decides', { paymentRef, cres: check.transStatus, result: verdict });
  }
  if (outcome.kind !== 'authenticated') {
    return fail(
      outcome.kind === 'failed' ? outcome.failure : { code: 'THREE_DS_FAILED', reason: 'Cardholder authentication failed' },
      outcome.kind === 'failed' ? outcome.evidence : undefined,
    ).then(counted(() => recordThreeDsResult(environment, 'failed')));
  }
  recordThreeDsResult(environment, 'authenticated');
  const { credential, brand, masked } = await reopen(deps, ctx, pending);
  return runPayment(deps, ctx, { from: 'AWAIT_3DS', credential, credentialKey, brand, eci: outcome.authentication.eci, masked, authenticated: outcome }, facts);
}

/** After the 3DS Method: the prepared attempt's AReq (or a new attempt when that one is spent). */
async function continueAfterMethod(
  deps: PaymentDeps,
  ctx: PaymentContext,
  input: { threeDSCompInd: 'Y' | 'N'; browserInfo: PageBrowserInfo },
  facts: RequestFacts,
): Promise<Payment> {
  const { orderRef, paymentRef } = ctx.payment;
  const current = ctx.payment.threeDs?.transactionId;
  if (current && settledWith(ctx.payment, threeDsMethodCredentialKey(current))) return ctx.payment; // the same report again
  assertWaiting(ctx.payment);
  const pending = await deps.payments.getPendingThreeDs(orderRef, paymentRef, deps.now());
  const credentialKey = threeDsMethodCredentialKey(current ?? pending?.transactionId ?? paymentRef);
  if (!pending) {
    const environment = ctx.merchant?.environment ?? 'production';
    return failWithoutAuthorization(
      deps,
      ctx,
      { from: 'AWAIT_3DS', credentialKey },
      { code: 'THREE_DS_EXPIRED', reason: 'The 3DS authentication expired' },
      facts,
    ).then(counted(() => recordThreeDsResult(environment, 'expired')));
  }
  if (pending.phase === 'challenge' || ctx.payment.threeDs?.acsUrl)
    throw new PaymentStateConflictError('The 3DS challenge is running: complete it with the cres.');
  const { credential, brand, masked } = await reopen(deps, ctx, pending);
  return runPayment(
    deps,
    ctx,
    {
      from: 'AWAIT_3DS',
      credential,
      credentialKey,
      brand,
      eci: ctx.payment.eci,
      masked,
      browser: browserInfoOf(input.browserInfo, facts.browserHeaders, facts.payerIp),
      methodCompleted: input.threeDSCompInd,
    },
    facts,
  );
}

/** The kept JWE, decrypted again through KMS (SPEC §3): the credential exists in memory only. */
async function reopen(deps: PaymentDeps, ctx: PaymentContext, pending: PendingThreeDs) {
  const plaintext = await decryptCheckoutJwe(pending.jwe, deps.keys);
  const credential = parseDecryptedPayload(plaintext);
  const brand = ctx.payment.paymentMethod?.brand ?? brandOf(credential.number);
  return { credential, brand, masked: ctx.payment.paymentMethod ?? maskPaymentMethod(pending.source, brand, credential) };
}

function assertWaiting(payment: Payment): void {
  const waiting = payment.state === 'AWAIT_3DS' || (payment.state === 'PROCESSING' && payment.leaseFrom === 'AWAIT_3DS');
  if (!waiting) throw new PaymentStateConflictError(`The payment is ${payment.state}; 3DS can only complete a payment in AWAIT_3DS.`);
}

function threeDsBrand(pending: PendingThreeDs, payment: Payment): CardBrand {
  const named = pending.brand ?? payment.paymentMethod?.brand;
  return THREE_DS_BRANDS.find((brand) => brand === named) ?? 'VISA';
}

const otherChallenge = () =>
  new InvalidRequestError('The cres does not belong to this payment’s challenge.', { errors: [{ path: 'cres', message: 'Unknown transaction' }] });

/** Records once the write that makes the result true has landed. */
const counted =
  (record: () => void) =>
  (payment: Payment): Payment => {
    record();
    return payment;
  };
