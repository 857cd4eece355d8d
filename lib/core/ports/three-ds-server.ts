import { ThreeDsServerCallError } from './three-ds-server-error.js';

/**
 * The port to a 3DS Server (EMV 3DS 2.2, browser channel; SPEC 4.17). The reference adapter
 * speaks 3dsecure.io's API (lib/adapters/three-ds/threedsecure-io); the sandbox's simulator
 * (lib/adapters/sandbox/sandbox-three-ds.ts) is another adapter of the same port. Another 3DS
 * Server is another adapter (docs/integrating/three-ds.md, "Plugging in another 3DS Server").
 *
 * The sequence (what lib/core/payments/three-ds/ drives):
 * 1. `prepare` (the 3DS Server's card-range lookup): the transaction id the attempt will use, the
 *    protocol version, and the 3DS Method the page must run first, if the range has one.
 * 2. The page runs the 3DS Method (hidden iframe, 10 s) and reports `threeDSCompInd`.
 * 3. `authenticate`: the one AReq of the attempt. Frictionless (Y/A: the authentication to
 *    authorize with), challenge (C: where the page form-POSTs the CReq), or failed (N/R/U/I);
 *    decoupled (D) and SPC (S) come back as `unsupported`.
 * 4. After a challenge, `challengeResult`: the RReq the 3DS Server received from the ACS — the
 *    verdict; the CRes the browser carried is only cross-checked (`checkCres`).
 * 5. `recover`: an `authenticate` whose answer was lost (maybe sent) is never sent again; this
 *    asks the 3DS Server what became of that transaction id.
 *
 * Every call takes an AbortSignal (its deadline) and fails with ThreeDsServerCallError, which
 * says whether the request certainly did not reach the server. The account number and the
 * authentication value live in memory only: neither may be logged, put in an error, or stored
 * after the authorization that used it.
 */
export interface ThreeDsServer {
  /** What the AReq needs from the payment: the browser's data and the merchant's requestor profile (a simulator may need neither). */
  readonly requires: { browserInfo: boolean; requestor: boolean };
  prepare(request: PrepareRequest, signal: AbortSignal): Promise<Preparation>;
  authenticate(request: AuthenticationRequest, signal: AbortSignal): Promise<AuthenticationOutcome>;
  challengeResult(challenge: ChallengeReference, signal: AbortSignal): Promise<ChallengeResult>;
  recover(attempt: RecoveryReference, signal: AbortSignal): Promise<RecoveryOutcome>;
  /** Parses the browser's CRes and says whether it names this challenge (never what it proves). */
  checkCres(cres: string, challenge: ChallengeReference): CresCheck;
}

/** Where the ACS form-POSTs the CRes (AReq notificationURL): the service's public endpoint. */
export const THREE_DS_NOTIFICATION_PATH = '/checkout/3ds-notification';
/** Where the ACS's 3DS Method page form-POSTs its completion (threeDSMethodNotificationURL). */
export const THREE_DS_METHOD_NOTIFICATION_PATH = '/checkout/3ds-method-notification';

export type CardBrand = 'VISA' | 'MASTERCARD' | 'AMEX' | 'DISCOVER';
export const THREE_DS_BRANDS: readonly CardBrand[] = ['VISA', 'MASTERCARD', 'AMEX', 'DISCOVER'];
export type MessageVersion = '2.2.0' | '2.3.1';
/** EMV challengeWindowSize: 01 250×400, 02 390×400, 03 500×600, 04 600×400, 05 full screen. */
export type ChallengeWindowSize = '01' | '02' | '03' | '04' | '05';

/** The network token (or PAN) and its expiry: the AReq's acctNumber and cardExpiryDate. */
export interface AccountCredential {
  number: string;
  /** '01'…'12'. */
  expiryMonth: string;
  /** Four digits. */
  expiryYear: string;
}

export interface PrepareRequest {
  brand: CardBrand;
  account: AccountCredential;
  /** Where the ACS's 3DS Method iframe posts its completion (the service's public endpoint). */
  methodNotificationUrl: string;
}

export type Preparation =
  | {
      kind: 'ready';
      /** threeDSServerTransID: the attempt's id from here on (valid for a short time: 80 s at 3dsecure.io). */
      transactionId: string;
      messageVersion: MessageVersion;
      /** Present when the card range has a 3DS Method: the page form-POSTs `threeDSMethodData` to `url` in a hidden iframe. */
      method?: { url: string; threeDSMethodData: string };
    }
  /** The card range is not enrolled in EMV 3DS 2 at any directory server. */
  | { kind: 'not-enrolled' }
  /** Enrolled, but the ACS speaks no version this service does (2.1.0 only, say). */
  | { kind: 'unsupported-version'; acsVersions: string };

/** SPEC 4.7 `threeDsRequestor`, resolved for the payment's brand (lib/core/domain/three-ds-requestor.ts). */
export interface RequestorProfile {
  threeDSRequestorID: string;
  threeDSRequestorName: string;
  threeDSRequestorURL: string;
  /** ISO 18245 merchant category code, four digits. */
  mcc: string;
  merchantName: string;
  /** ISO 3166-1 numeric, three digits. */
  merchantCountryCode: string;
  acquirerBIN: string;
  acquirerMerchantID: string;
  /** ISO 3166-1 numeric, three digits; 2.3.1 requires it. */
  acquirerCountryCode: string;
}

/** What the page collects (JavaScript) and the request itself shows (headers, source IP). */
export interface BrowserInfo {
  /** The Accept header of the shopper's navigation to the checkout page. */
  acceptHeader: string;
  /** The User-Agent header of the shopper's request. */
  userAgent: string;
  /** The Accept-Language header of the shopper's request (2.3.1 acceptLanguage). */
  acceptLanguage?: string;
  /** The shopper's source IP, as the service saw it (SPEC 4.3 payer IP). */
  ip?: string;
  /** navigator.language. */
  language: string;
  /** screen.colorDepth. */
  colorDepth: number;
  screenHeight: number;
  screenWidth: number;
  /** new Date().getTimezoneOffset(): minutes, positive behind UTC. */
  timeZoneOffset: number;
  /** navigator.javaEnabled(). */
  javaEnabled: boolean;
  /** The challenge window the page will give the challenge (the CReq carries it). */
  challengeWindowSize: ChallengeWindowSize;
}

export interface AuthenticationRequest {
  transactionId: string;
  messageVersion: MessageVersion;
  brand: CardBrand;
  account: AccountCredential;
  /** Minor units and ISO 4217 alphabetic code, as the order has it. */
  amount: { value: number; currencyCode: string };
  /** When the shopper confirmed the purchase (AReq purchaseDate, UTC). */
  purchaseDate: Date;
  /** Required by a server whose `requires.requestor` is true. */
  requestor?: RequestorProfile;
  /** Required by a server whose `requires.browserInfo` is true. */
  browser?: BrowserInfo;
  /** Y: the 3DS Method completed; N: it did not within 10 s; U: the range has none. */
  threeDSCompInd: 'Y' | 'N' | 'U';
  /** The service's public endpoint that receives the CRes (AReq notificationURL). */
  notificationUrl: string;
  /** The shopper's e-mail, when the order has one (schemes ask for it if available). */
  email?: string;
  /** The challenge window when no browser data says it (a simulator's). */
  challengeWindowSize?: ChallengeWindowSize;
}

/** What the authorization carries after a successful authentication (SPEC 4.16). */
export interface Authentication {
  transStatus: 'Y' | 'A';
  /** CAVV / AAV: secret, in memory only until the authorization. */
  authenticationValue: string;
  eci: string;
  transactionId: string;
  dsTransactionId: string;
  acsTransactionId: string;
  messageVersion: MessageVersion;
}

export interface ChallengeReference {
  transactionId: string;
  acsTransactionId: string;
  messageVersion: MessageVersion;
  brand: CardBrand;
}

export type AuthenticationOutcome =
  | { kind: 'frictionless'; authentication: Authentication }
  | {
      kind: 'challenge';
      challenge: ChallengeReference & { dsTransactionId: string };
      /** Where the page form-POSTs `creq` (and its threeDSSessionData) inside the challenge frame. */
      acsUrl: string;
      /** The CReq, base64url without padding, for the window size the page asked for. */
      creq: string;
    }
  | { kind: 'failed'; transStatus: 'N' | 'R' | 'U' | 'I'; transStatusReason?: string; transactionId: string; dsTransactionId?: string }
  /** Decoupled (D) or SPC (S): not supported, refused; never authorized on. */
  | { kind: 'unsupported'; transStatus: 'D' | 'S'; transactionId: string };

export type ChallengeResult =
  /** No RReq yet: the challenge is still running (or was never started). */
  | { kind: 'pending' }
  /** The 3DS Server no longer knows the transaction (it keeps a result for a few minutes only). */
  | { kind: 'expired' }
  | { kind: 'authenticated'; authentication: Authentication }
  | { kind: 'failed'; transStatus: 'N' | 'R' | 'U'; transStatusReason?: string; challengeCancel?: string };

export interface RecoveryReference {
  transactionId: string;
  messageVersion: MessageVersion;
  brand: CardBrand;
}

export type RecoveryOutcome =
  /** The ACS reported a result (RReq): take it as the attempt's outcome. */
  | { kind: 'result'; result: Exclude<ChallengeResult, { kind: 'pending' } | { kind: 'expired' }> }
  /**
   * Nothing to recover: the AReq may or may not have been processed, and its answer cannot be
   * had again. The attempt is spent (its transaction id is never sent again); the payment may
   * start a new attempt with a new transaction id.
   */
  | { kind: 'spent'; reason: 'no-result' | 'unknown-transaction' };

export type CresCheck = { kind: 'matches'; transStatus: string } | { kind: 'other-challenge' } | { kind: 'malformed' };

/**
/**
 * A 3DS slot with nothing plugged in: the production slot of a deployment without a 3DS Server
 * (THREE_DS_SERVER_URL unset), and the sandbox slot on a stage that serves no sandbox. A step-up
 * cannot be done, so the attempt fails as 502 and the payment stays retryable — never parked in
 * AWAIT_3DS behind an ACS that will not answer, never authorized unauthenticated. `reason` stays
 * in the error (logs), never in the answer.
 */
export function unconfiguredThreeDsServer(reason: string): ThreeDsServer {
  const unconfigured = (endpoint: string) => new ThreeDsServerCallError('not-sent', endpoint, { reason });
  return {
    requires: { browserInfo: false, requestor: false },
    prepare: async () => {
      throw unconfigured('/preauth');
    },
    authenticate: async () => {
      throw unconfigured('/auth');
    },
    challengeResult: async () => {
      throw unconfigured('/postauth');
    },
    recover: async () => {
      throw unconfigured('/postauth');
    },
    checkCres: () => ({ kind: 'malformed' }),
  };
}
