import type { Amount } from '../domain/order.js';
import type { Decline } from '../domain/decline.js';
import type { MerchantConfig } from '../domain/merchant.js';
import { withCallSignal } from '../deadline.js';
import { AuthorizationUnavailableError } from '../errors.js';

/**
 * The result of the EMV 3DS authentication a payment stepped up with (SPEC 4.16, 4.17), filled
 * by the 3DS step-up and sent in each processor's documented fields for external 3DS. Memory
 * only: the authentication value is never stored or logged.
 */
export interface ThreeDsAuthentication {
  /** CAVV / AAV / AEVV, base64 (20 bytes decoded). */
  authenticationValue: string;
  /** The ECI the authentication produced (05/06 Visa, 02/01 Mastercard…): the payment's ECI from then on. */
  eci: string;
  /** The directory server's transaction id (dsTransID), a UUID. */
  dsTransactionId: string;
  /** The 3DS protocol version of the authentication, e.g. 2.2.0. */
  protocolVersion: string;
  /** The authentication's final transStatus (Y or A): the ARes's, or after a challenge the RReq's. */
  transStatus: 'Y' | 'A';
  /** The ARes said C and a challenge followed: `transStatus` is the challenge's (RReq). Absent: frictionless. */
  challenged?: true;
}

/** The name the 3DS step-up uses for it. */
export type AuthorizationThreeDs = ThreeDsAuthentication;

/** What goes to the acquirer. Lives only in memory for the duration of the call. */
export interface AuthorizationRequest {
  /**
   * The paymentRef: the authorization's own reference. The processor's idempotency key is derived
   * from it, so a repeat is answered with the first result, never charged twice.
   */
  idempotencyKey: string;
  /** The order the payment belongs to: where a processor's later report of this reference is applied. */
  orderRef: string;
  credential: {
    kind: 'token' | 'card';
    number: string;
    expiryMonth: string;
    expiryYear: string;
    cryptogram: string;
  };
  brand: string;
  eci: string | undefined;
  amount: Amount;
  capture: boolean;
  payerIp: string | undefined;
  /** Present when the payment stepped up (SPEC 4.17): its authentication, for the processor's external-3DS fields. */
  threeDs?: ThreeDsAuthentication;
}

/**
 * A capture, reversal or refund of an authorized payment (SPEC 4.11–4.13). Its idempotency
 * key is the operation's own reference; `paymentRef` names the authorization it acts on, and
 * `processorReference` is the processor's reference of that authorization.
 */
export interface ModificationRequest {
  idempotencyKey: string;
  kind: 'CAPTURE' | 'REVERSAL' | 'REFUND';
  orderRef: string;
  paymentRef: string;
  /** The authorization's reference at the processor (Adyen pspReference, Checkout.com pay_…). */
  processorReference: string;
  amount: Amount;
}

/**
 * What the acquirer answered. `pending` is neither approved nor declined: the processor has the
 * operation and decides later (an Adyen notification, or a later `recover`).
 */
export type AuthorizationOutcome =
  | { kind: 'approved'; processorReference: string; authorizationCode?: string; resultCode: string }
  | { kind: 'declined'; processorReference?: string; decline: Decline }
  | { kind: 'pending'; processorReference: string };

/**
 * Recovery after a call that may have reached the acquirer (SPEC §3, 4.16): never the operation
 * sent as a new one, only its outcome asked for — by reference (Checkout.com, the sandbox), or by
 * replaying the very request under the same idempotency key where that is the processor's
 * documented way (Adyen): that needs the request, which for an authorization holds the
 * credential and so exists only while a caller retries with it. `acknowledged` is the
 * processor's reference when it already answered `pending`: it certainly has the operation.
 */
export type RecoveryQuery =
  | { operation: 'AUTHORIZE'; reference: string; acknowledged?: string; request?: AuthorizationRequest }
  | { operation: 'MODIFY'; request: ModificationRequest; acknowledged?: string };

export type RecoveryAnswer =
  /** The acquirer knows the operation: its outcome (possibly still pending). */
  | { kind: 'known'; outcome: AuthorizationOutcome }
  /**
   * The acquirer has no such operation. Conclusive only once a request that may still be on its
   * way can no longer land (the caller's in-flight window); never for an acknowledged one.
   */
  | { kind: 'absent' }
  /** The acquirer is still processing the first request under this key, or only its later report can tell: ask again later. */
  | { kind: 'in-progress' }
  /** This acquirer can answer only with the original request (Adyen), or by its later report. */
  | { kind: 'needs-request' };

/**
 * The port to the acquirer/processor. `signal` aborts when our timeout or the invocation's
 * deadline fires. Every call carries the operation's own reference as its idempotency key.
 */
export interface Authorizer {
  authorize(request: AuthorizationRequest, signal: AbortSignal): Promise<AuthorizationOutcome>;
  /** Capture, reverse or refund; answered like an authorization (approved, declined, or pending). */
  modify(request: ModificationRequest, signal: AbortSignal): Promise<AuthorizationOutcome>;
  /** What became of an operation that may have reached the acquirer (see RecoveryQuery). */
  recover(query: RecoveryQuery, signal: AbortSignal): Promise<RecoveryAnswer>;
}

/**
 * Which authorizer acts for a merchant: the sandbox acquirer for sandbox merchants (never a real
 * one), the merchant's own processor for production merchants (SPEC 4.7 `processor`), built by
 * the composition. Failing to build it (its credentials unreadable, say) fails as not reached:
 * nothing was sent.
 */
export interface AuthorizerSource {
  for(merchant: MerchantConfig | undefined): Promise<Authorizer>;
}

/**
 * Thrown by an adapter that knows the acquirer did not perform the operation (the request
 * was never sent, or refused before any processing). Anything else an adapter throws is
 * ambiguous: the operation may have happened.
 */
export class OperationNotPerformedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OperationNotPerformedError';
  }
}

/** 502 for a call that certainly did not reach the acquirer: the payment is free again at once. */
export class AcquirerNotReachedError extends AuthorizationUnavailableError {
  override readonly name: string = 'AcquirerNotReachedError';
}

/**
 * Calls the authorizer with a hard timeout, also bounded by the invocation's deadline. A
 * timeout or transport failure is a 502 that leaves the payment retryable; the retry asks
 * `recover` before anything else.
 */
export function authorizeWithTimeout(authorizer: Authorizer, request: AuthorizationRequest, timeoutMs: number): Promise<AuthorizationOutcome> {
  return withTimeout((signal) => authorizer.authorize(request, signal), timeoutMs, 'authorizer');
}

export function modifyWithTimeout(authorizer: Authorizer, request: ModificationRequest, timeoutMs: number): Promise<AuthorizationOutcome> {
  return withTimeout((signal) => authorizer.modify(request, signal), timeoutMs, 'acquirer modification');
}

export function recoverWithTimeout(authorizer: Authorizer, query: RecoveryQuery, timeoutMs: number): Promise<RecoveryAnswer> {
  return withTimeout((signal) => authorizer.recover(query, signal), timeoutMs, 'acquirer recovery');
}

function withTimeout<T>(call: (signal: AbortSignal) => Promise<T>, timeoutMs: number, what: string): Promise<T> {
  return withCallSignal(timeoutMs, async (signal) => {
    // An adapter that ignores its signal must not hold the payment: the race ends at the abort.
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () =>
        reject(new AuthorizationUnavailableError(undefined, { cause: new Error(`${what} gave no answer within ${timeoutMs} ms or the deadline`) }));
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([call(signal), aborted]);
    } catch (error) {
      if (error instanceof AuthorizationUnavailableError) throw error;
      if (error instanceof OperationNotPerformedError) throw new AcquirerNotReachedError(undefined, { cause: error });
      throw new AuthorizationUnavailableError(undefined, { cause: error });
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  });
}
