import type { PaymentCredential } from '../../checkout/payment-data.js';
import { requestorFor } from '../../domain/three-ds-requestor-profile.js';
import type { PaymentFailure, ThreeDsChallenge, ThreeDsEvidence } from '../../domain/payment.js';
import { AuthorizationUnavailableError, DomainError, InvalidRequestError } from '../../errors.js';
import type { PendingThreeDs } from '../../ports/payment-store.js';
import { StoreConflictError } from '../../ports/store-conflict.js';
import { ThreeDsServerCallError } from '../../ports/three-ds-server-error.js';
import {
  THREE_DS_BRANDS,
  THREE_DS_METHOD_NOTIFICATION_PATH,
  THREE_DS_NOTIFICATION_PATH,
  type AccountCredential,
  type Authentication,
  type AuthenticationOutcome,
  type BrowserInfo,
  type CardBrand,
  type ChallengeResult,
  type RequestorProfile,
  type ThreeDsServer,
} from '../../ports/three-ds-server.js';
import type { PaymentDeps, RequestFacts } from '../deps.js';
import type { PaymentContext } from '../payment-context.js';
import { callThreeDsServer } from './calls.js';
import { authenticatedEvidence, challengeFailure, evidenceOf } from './evidence.js';

/**
 * A production (or sandbox) step-up under the payment's lease (SPEC 4.17; docs/design/three-ds-server.md):
 * the attempt is one 3DS Server transaction id. `prepare`, then either the 3DS Method (the
 * payment waits, AWAIT_3DS with `threeDs.method`, and 4.10 `{threeDSCompInd}` comes back here)
 * or at once the one AReq of the attempt: frictionless → authenticated (the caller authorizes in
 * the same request), challenge → AWAIT_3DS with the CReq, refused → FAILED THREE_DS_FAILED.
 *
 * At most one AReq per attempt: before it is sent, the attempt is claimed with a conditional
 * write on the pending-3DS record (`areqSentFor`); whoever does not win never sends it. An AReq
 * that may have been processed (no answer) is never sent again: the attempt is recovered by
 * its transaction id (`recover`), or spent — and the payment's next try starts a new attempt
 * (a new transaction id). Attempts per payment are bounded (settings.threeDs.maxAttempts).
 */
export type StepOutcome =
  | { kind: 'await'; threeDs: ThreeDsChallenge }
  | { kind: 'failed'; failure: PaymentFailure; evidence?: ThreeDsEvidence }
  | { kind: 'authenticated'; authentication: Authentication; evidence: ThreeDsEvidence };

export interface StepInput {
  credential: PaymentCredential;
  brand: string;
  /** The credential key of the request (4.3/4.4): the pending record's owner. */
  owner: string;
  browser?: BrowserInfo | undefined;
  /** 4.3/4.4: the credential sealed for the wait (JWE to our KMS key). Absent in 4.10: the record has it. */
  sealed?: (() => Promise<Pick<PendingThreeDs, 'jwe' | 'source'>>) | undefined;
  /** 4.10 after the 3DS Method: Y completed, N not within 10 s. */
  methodCompleted?: 'Y' | 'N' | undefined;
}

interface Attempt {
  deps: PaymentDeps;
  ctx: PaymentContext;
  facts: RequestFacts;
  server: ThreeDsServer;
  environment: string;
  brand: CardBrand;
  account: AccountCredential;
  requestor: RequestorProfile | undefined;
  browser: BrowserInfo | undefined;
}

export async function stepUp(deps: PaymentDeps, ctx: PaymentContext, input: StepInput, facts: RequestFacts): Promise<StepOutcome> {
  const environment = ctx.merchant?.environment ?? 'production';
  const server = deps.threeDsServers[environment];
  const brand = THREE_DS_BRANDS.find((known) => known === input.brand);
  if (!brand) return cannotAuthenticate('no directory server for the brand');
  let requestor: RequestorProfile | undefined;
  if (server.requires.requestor) {
    requestor = ctx.merchant?.threeDsRequestor && requestorFor(ctx.merchant.threeDsRequestor, brand);
    if (!requestor) {
      facts.logger.warn('no 3DS requestor profile for the brand (4.7 threeDsRequestor): the payment cannot be authenticated', {
        paymentRef: ctx.payment.paymentRef,
        brand,
      });
      return cannotAuthenticate('no 3DS requestor profile for the brand');
    }
  }
  if (server.requires.browserInfo && !input.browser?.userAgent) {
    throw new InvalidRequestError('This payment must be authenticated by the cardholder’s browser (EMV 3DS): send browserInfo.', {
      errors: [{ path: input.browser ? 'browserInfo.userAgent' : 'browserInfo', message: 'Required: the payment steps up through EMV 3DS' }],
    });
  }
  const { number, expiryMonth, expiryYear } = input.credential;
  const a: Attempt = { deps, ctx, facts, server, environment, brand, account: { number, expiryMonth, expiryYear }, requestor, browser: input.browser };

  const stored = await deps.payments.getPendingThreeDs(ctx.payment.orderRef, ctx.payment.paymentRef, deps.now());
  // In 4.3/4.4 the record may be an earlier request's, for another credential: only its count carries over.
  const pending = input.sealed && stored?.owner !== input.owner ? undefined : stored;
  if (pending?.phase === 'areq-sent') {
    const recovered = await recoverAttempt(a, pending);
    if (recovered !== 'spent') return recovered;
  } else if (input.methodCompleted && pending?.phase === 'method') {
    return authenticateAttempt(a, pending, input.methodCompleted);
  }
  return newAttempt(a, input, pending ?? stored);
}

async function newAttempt(a: Attempt, input: StepInput, previous: PendingThreeDs | undefined): Promise<StepOutcome> {
  const { deps, ctx, facts, server } = a;
  const attempts = (previous?.attempts ?? 0) + 1;
  if (attempts > deps.settings.threeDs.maxAttempts) {
    facts.logger.warn('3DS attempts exhausted', { paymentRef: ctx.payment.paymentRef, attempts: previous?.attempts });
    return { kind: 'failed', failure: { code: 'THREE_DS_FAILED', reason: 'Cardholder authentication could not be completed' } };
  }
  const sealed = input.sealed ? await input.sealed() : previous && { jwe: previous.jwe, source: previous.source };
  if (!sealed) return cannotAuthenticate('nothing kept to authorize with after the authentication');
  const preparation = await callThreeDsServer('/preauth', deps.settings.threeDs.prepareTimeoutMs, (signal) =>
    server.prepare({ brand: a.brand, account: a.account, methodNotificationUrl: `${facts.baseUrl}${THREE_DS_METHOD_NOTIFICATION_PATH}` }, signal),
  ).catch(unavailable);
  if (preparation.kind !== 'ready') {
    facts.logger.info('card range cannot be authenticated', { paymentRef: ctx.payment.paymentRef, kind: preparation.kind });
    return cannotAuthenticate(preparation.kind);
  }
  const next: PendingThreeDs = {
    ...sealed,
    owner: input.sealed ? input.owner : previous?.owner,
    environment: a.environment,
    expiresAt: previous?.expiresAt ?? Math.floor(deps.now() / 1000) + deps.settings.pendingThreeDsSeconds,
    transactionId: preparation.transactionId,
    messageVersion: preparation.messageVersion,
    brand: a.brand,
    attempts,
    phase: 'method',
  };
  if (!preparation.method) return authenticateAttempt(a, next, 'U');
  await deps.payments.putPendingThreeDs(ctx.payment.orderRef, ctx.payment.paymentRef, next);
  facts.logger.info('3DS Method to run', { paymentRef: ctx.payment.paymentRef, transactionId: next.transactionId });
  return { kind: 'await', threeDs: { transactionId: next.transactionId, method: preparation.method } };
}

/** The one AReq of the attempt, claimed first; a lost answer goes to recovery, never to a second AReq. */
async function authenticateAttempt(a: Attempt, pending: PendingThreeDs, threeDSCompInd: 'Y' | 'N' | 'U'): Promise<StepOutcome> {
  const { deps, ctx, facts, server } = a;
  const { orderRef, paymentRef } = ctx.payment;
  const claimed: PendingThreeDs = { ...pending, phase: 'areq-sent', areqSentFor: pending.transactionId };
  try {
    await deps.payments.putPendingThreeDs(orderRef, paymentRef, claimed, { unlessAReqSentFor: pending.transactionId });
  } catch (error) {
    if (!(error instanceof StoreConflictError)) throw error;
    facts.logger.warn('the AReq of this attempt was claimed before: recovering instead of sending it', { paymentRef, transactionId: pending.transactionId });
    const recovered = await recoverAttempt(a, claimed);
    if (recovered === 'spent') throw unavailable(new Error('the attempt’s AReq was claimed by an earlier request and has no result'));
    return recovered;
  }
  let outcome: AuthenticationOutcome;
  try {
    outcome = await callThreeDsServer('/auth', deps.settings.threeDs.authenticateTimeoutMs, (signal) =>
      server.authenticate(
        {
          transactionId: pending.transactionId,
          messageVersion: pending.messageVersion ?? '2.2.0',
          brand: a.brand,
          account: a.account,
          amount: ctx.payment.amount,
          purchaseDate: new Date(deps.now()),
          ...(a.requestor ? { requestor: a.requestor } : {}),
          ...(a.browser ? { browser: a.browser } : {}),
          threeDSCompInd,
          notificationUrl: `${facts.baseUrl}${THREE_DS_NOTIFICATION_PATH}`,
          ...(ctx.order.emailAddress ? { email: ctx.order.emailAddress } : {}),
        },
        signal,
      ),
    );
  } catch (error) {
    if (!(error instanceof ThreeDsServerCallError)) throw error;
    if (error.kind === 'maybe-sent') {
      facts.logger.warn('the AReq may have been processed without an answer: recovering by its transaction id', { paymentRef, error });
      const recovered = await recoverAttempt(a, claimed);
      if (recovered === 'spent') throw unavailable(error);
      return recovered;
    }
    facts.logger.warn('the AReq was refused or never sent: the attempt is over', { paymentRef, kind: error.kind, erro: error.erro });
    await markSpent(a, claimed);
    throw unavailable(error);
  }
  return outcomeOf(a, claimed, outcome);
}

async function outcomeOf(a: Attempt, claimed: PendingThreeDs, outcome: AuthenticationOutcome): Promise<StepOutcome> {
  const { deps, ctx, facts } = a;
  const { paymentRef, orderRef } = ctx.payment;
  switch (outcome.kind) {
    case 'frictionless':
      facts.logger.info('authenticated without a challenge', { paymentRef, transStatus: outcome.authentication.transStatus });
      return { kind: 'authenticated', authentication: outcome.authentication, evidence: authenticatedEvidence(outcome.authentication) };
    case 'challenge': {
      const { challenge } = outcome;
      await deps.payments.putPendingThreeDs(orderRef, paymentRef, {
        ...claimed,
        phase: 'challenge',
        acsTransactionId: challenge.acsTransactionId,
        messageVersion: challenge.messageVersion,
      });
      facts.logger.info('the ACS challenges the cardholder', { paymentRef, transactionId: challenge.transactionId });
      return {
        kind: 'await',
        threeDs: {
          transactionId: challenge.transactionId,
          acsUrl: outcome.acsUrl,
          creq: outcome.creq,
          challengeWindowSize: a.browser?.challengeWindowSize ?? '05',
        },
      };
    }
    case 'failed': {
      const evidence = evidenceOf({ ...outcome, protocolVersion: claimed.messageVersion });
      facts.logger.info('authentication refused', { paymentRef, transStatus: outcome.transStatus, transStatusReason: outcome.transStatusReason });
      return { kind: 'failed', failure: challengeFailure(evidence), evidence };
    }
    case 'unsupported':
      facts.logger.info('authentication refused: not supported', { paymentRef, transStatus: outcome.transStatus });
      return {
        kind: 'failed',
        failure: {
          code: 'THREE_DS_FAILED',
          reason: outcome.transStatus === 'D' ? 'Decoupled authentication is not supported' : 'Secure payment confirmation is not supported',
        },
        evidence: evidenceOf({ transactionId: outcome.transactionId, transStatus: outcome.transStatus, protocolVersion: claimed.messageVersion }),
      };
  }
}

/** The attempt's result by its transaction id (an RReq), or 'spent' — then it is recorded so. */
async function recoverAttempt(a: Attempt, pending: PendingThreeDs): Promise<StepOutcome | 'spent'> {
  const { deps, ctx, facts, server } = a;
  const recovered = await callThreeDsServer('/postauth', deps.settings.threeDs.resultTimeoutMs, (signal) =>
    server.recover({ transactionId: pending.transactionId, messageVersion: pending.messageVersion ?? '2.2.0', brand: a.brand }, signal),
  ).catch(unavailable); // the attempt stays `areq-sent`: the next try asks again
  facts.logger.info('3DS attempt recovered', { paymentRef: ctx.payment.paymentRef, transactionId: pending.transactionId, kind: recovered.kind });
  if (recovered.kind === 'spent') {
    await markSpent(a, pending);
    return 'spent';
  }
  return resultOutcome(recovered.result, pending);
}

/** What a challenge's RReq (or a recovered one) means for the payment. */
export function resultOutcome(
  result: Exclude<ChallengeResult, { kind: 'pending' } | { kind: 'expired' }>,
  pending: Pick<PendingThreeDs, 'transactionId' | 'acsTransactionId' | 'messageVersion'>,
): StepOutcome {
  if (result.kind === 'authenticated')
    return { kind: 'authenticated', authentication: result.authentication, evidence: authenticatedEvidence(result.authentication) };
  const evidence = evidenceOf({
    transactionId: pending.transactionId,
    acsTransactionId: pending.acsTransactionId,
    protocolVersion: pending.messageVersion,
    transStatus: result.transStatus,
    transStatusReason: result.transStatusReason,
    challengeCancel: result.challengeCancel,
  });
  return { kind: 'failed', failure: challengeFailure(evidence), evidence };
}

async function markSpent(a: Attempt, pending: PendingThreeDs): Promise<void> {
  await a.deps.payments
    .putPendingThreeDs(a.ctx.payment.orderRef, a.ctx.payment.paymentRef, { ...pending, phase: 'spent' })
    .catch((error: unknown) => a.facts.logger.warn('3DS attempt not marked spent; the next try recovers it again', { error }));
}

/** The policy asked for 3DS and it cannot be had: never skip it (the payment fails, never authorized unauthenticated). */
function cannotAuthenticate(why: string): StepOutcome {
  return { kind: 'failed', failure: { code: 'THREE_DS_FAILED', reason: `The card cannot be authenticated (${why})` } };
}

/** 502, retryable: the 3DS Server did not give this attempt an outcome. DomainErrors (a 503 of our own store) pass. */
function unavailable(error: unknown): never {
  if (error instanceof DomainError) throw error;
  throw new AuthorizationUnavailableError('Cardholder authentication is unavailable; the payment can be retried.', { cause: error });
}
