import type { Amount } from '../domain/order.js';
import { withCallSignal } from '../deadline.js';
import { AuthorizationUnavailableError } from '../errors.js';

/** What goes to the acquirer. Lives only in memory for the duration of the call. */
export interface AuthorizationRequest {
  /** The paymentRef: the acquirer must answer a repeat with the first result, never charge twice. */
  idempotencyKey: string;
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
  /**
   * The cardholder authentication a 3DS step-up produced (SPEC 4.16, 4.17), for each processor's
   * external-3DS fields: the authentication value (CAVV/AAV: secret, in memory only, never
   * stored or logged), the ECI it yields, the directory server's transaction id, the EMV 3DS
   * protocol version and the ARes/RReq transStatus (Y or A). Absent when no 3DS Server
   * authenticated the payment (the network's own assurance, the sandbox).
   */
  threeDs?: AuthorizationThreeDs;
}

export interface AuthorizationThreeDs {
  authenticationValue: string;
  eci: string;
  dsTransactionId: string;
  protocolVersion: string;
  transStatus: 'Y' | 'A';
}

/**
 * A capture, reversal or refund of an authorized payment (SPEC 4.11–4.13). Its idempotency
 * key is the operation's own reference; `paymentRef` names the authorization it acts on.
 */
export interface ModificationRequest {
  idempotencyKey: string;
  kind: 'CAPTURE' | 'REVERSAL' | 'REFUND';
  paymentRef: string;
  amount: Amount;
}

export type AuthorizationOutcome = { approved: true; code: string; resultCode: string } | { approved: false; declineCode: string; reason: string };

/**
 * The port to the acquirer/processor. `signal` aborts when our timeout or the invocation's
 * deadline fires. `lookup` answers what the acquirer did for an idempotency key, or
 * undefined when it never performed that operation (SPEC §3: asked instead of sending the
 * operation again whenever we cannot know whether an earlier call reached it).
 */
export interface Authorizer {
  authorize(request: AuthorizationRequest, signal: AbortSignal): Promise<AuthorizationOutcome>;
  /** Capture, reverse or refund; answered like an authorization (approved with a reference, or declined). */
  modify(request: ModificationRequest, signal: AbortSignal): Promise<AuthorizationOutcome>;
  /** What the acquirer did under an idempotency key (any operation), or undefined if nothing. */
  lookup(idempotencyKey: string, signal: AbortSignal): Promise<AuthorizationOutcome | undefined>;
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
 * `lookup` before anything else.
 */
export function authorizeWithTimeout(authorizer: Authorizer, request: AuthorizationRequest, timeoutMs: number): Promise<AuthorizationOutcome> {
  return withTimeout((signal) => authorizer.authorize(request, signal), timeoutMs, 'authorizer');
}

export function modifyWithTimeout(authorizer: Authorizer, request: ModificationRequest, timeoutMs: number): Promise<AuthorizationOutcome> {
  return withTimeout((signal) => authorizer.modify(request, signal), timeoutMs, 'acquirer modification');
}

export function lookupWithTimeout(authorizer: Authorizer, idempotencyKey: string, timeoutMs: number): Promise<AuthorizationOutcome | undefined> {
  return withTimeout((signal) => authorizer.lookup(idempotencyKey, signal), timeoutMs, 'acquirer lookup');
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
