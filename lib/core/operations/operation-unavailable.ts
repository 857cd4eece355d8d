import type { OperationKind } from '../domain/payment.js';
import { AuthorizationUnavailableError, type DomainErrorOptions } from '../errors.js';
import { AcquirerNotReachedError } from '../ports/authorizer.js';

/**
 * The 502s of a capture, reversal or refund (SPEC §2 AUTHORIZATION_UNAVAILABLE) say which
 * operation is concerned: "the authorizer", "the payment" would send a merchant looking at the
 * authorization. Never the acquirer's own text (that stays in `cause`).
 */
const NOUN: Record<OperationKind, string> = { CAPTURE: 'capture', REVERSAL: 'reversal', REFUND: 'refund' };

/** Sent, no answer in time: it may have happened; the same request later asks the acquirer, never sends it again. */
export function operationUnanswered(kind: OperationKind, options: DomainErrorOptions): AuthorizationUnavailableError {
  return new AuthorizationUnavailableError(
    `The acquirer did not answer the ${NOUN[kind]} in time; retry the same request after the indicated time (it is never sent twice).`,
    options,
  );
}

/** Certainly not sent: nothing happened, the amount is free again. */
export function operationNotReached(kind: OperationKind, options: DomainErrorOptions): AcquirerNotReachedError {
  return new AcquirerNotReachedError(`The acquirer could not be reached; the ${NOUN[kind]} was not performed and can be retried.`, options);
}

/** An earlier request of this operation is unsettled and may still land: wait, then retry. */
export function earlierOperationInFlight(kind: OperationKind, options: DomainErrorOptions): AuthorizationUnavailableError {
  return new AuthorizationUnavailableError(`The earlier ${NOUN[kind]} may still reach the acquirer; retry after the indicated time.`, options);
}

/** The acquirer did not say (in time) what became of an earlier request of this operation. */
export function earlierOperationUnknown(kind: OperationKind, options: DomainErrorOptions): AuthorizationUnavailableError {
  return new AuthorizationUnavailableError(`The acquirer did not answer about the earlier ${NOUN[kind]}; retry the same request.`, options);
}
