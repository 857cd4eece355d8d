import type { Amount } from '../domain/order.js';
import type { ThreeDsChallenge } from '../domain/payment.js';
import { AuthorizationUnavailableError } from '../errors.js';
import type { Cres } from '../payments/cres.js';

/**
 * The port to a 3DS server (EMV 3DS 2.2, browser channel). A gateway implements it for
 * production with its own 3DS server (docs/integrating/three-ds.md, "The ThreeDsServer port"); the sandbox
 * implementation lives in lib/sandbox/ and is wired in lib/composition/ only.
 *
 * 1. `startChallenge`: the authentication request (AReq through the directory server) for a
 *    payment that must step up; the ACS answered "challenge" (ARes transStatus C), so the
 *    server hands back where the browser must form-POST the `creq`. `notificationUrl` is the
 *    AReq's notificationURL: the ACS form-POSTs the `cres` there when the challenge ends.
 * 2. `challengeResult`: the verdict, as the ACS told the 3DS server directly (RReq through
 *    the directory server) — never what the browser-carried `cres` says. The `cres` is given
 *    so that an adapter can cross-check it, not so that it can be believed.
 */
/** Where the ACS form-POSTs the cres: the service's public notification endpoint. */
export const THREE_DS_NOTIFICATION_PATH = '/checkout/3ds-notification';

export interface ThreeDsServer {
  startChallenge(request: ChallengeRequest): Promise<StartedChallenge>;
  challengeResult(challenge: ChallengeRef, cres: Cres): Promise<ChallengeVerdict>;
}

export interface ChallengeRequest {
  orderRef: string;
  paymentRef: string;
  amount: Amount;
  brand: string;
  /** The service's public notification endpoint (POST /checkout/3ds-notification). */
  notificationUrl: string;
}

/** What the payment shows (SPEC §3 `threeDs`) plus the ACS's id for the transaction. */
export interface StartedChallenge extends ThreeDsChallenge {
  /** The ACS's acsTransID: a cres naming another one is not this challenge's. */
  acsTransactionId: string;
}

export interface ChallengeRef {
  /** threeDSServerTransID. */
  transactionId: string;
  acsTransactionId: string;
}

/**
 * `pending`: the ACS has not reported a result yet (no RReq). `answered`: its transStatus
 * (`Y` authenticated; anything else is not) and, when authenticated, the ECI to authorize with.
 */
export type ChallengeVerdict = { kind: 'pending' } | { kind: 'answered'; transStatus: string; eci?: string };

/**
 * A 3DS slot with nothing plugged in: the production slot until a gateway integrates its 3DS
 * server, and the sandbox slot on a stage that serves no sandbox. A step-up cannot be done,
 * so the attempt fails as 502 and the payment stays retryable — never parked in AWAIT_3DS
 * behind an ACS that will not answer, and never authorized without the authentication.
 * `reason` stays in the error's cause (logs), never in the answer.
 */
export function unconfiguredThreeDsServer(reason: string): ThreeDsServer {
  const unavailable = () =>
    new AuthorizationUnavailableError('Cardholder authentication is unavailable; the payment can be retried.', { cause: new Error(reason) });
  return {
    startChallenge: async () => {
      throw unavailable();
    },
    challengeResult: async () => {
      throw unavailable();
    },
  };
}
