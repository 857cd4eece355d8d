import { OperationNotPerformedError } from '../../../core/ports/authorizer.js';

/**
 * The two ways a processor call can fail (docs/design/processors.md "Failure classes").
 * Messages are fixed text: never a card number, token, cryptogram, credential or the
 * processor's own words; what went wrong in detail stays in `cause` and the typed fields.
 */

/** Why the request certainly never reached the processor. */
export type NotReachedReason = 'dns' | 'connection-refused' | 'connect-timeout' | 'processor-transient-refusal';

/**
 * Certainly not sent: the name did not resolve or the connection was refused or never opened,
 * so no byte of the request was written — or the processor itself answered that it did not
 * process the request (Adyen's `Transient-Error: true`). The payment is free again at once. Extends the core's
 * OperationNotPerformedError so today's authorizeWithTimeout already treats it as "not reached".
 */
export class ProcessorNotReachedError extends OperationNotPerformedError {
  override readonly name: string = 'ProcessorNotReachedError';
  constructor(
    readonly processor: string,
    readonly reason: NotReachedReason,
    options?: { cause?: unknown },
  ) {
    super(`${processor} was not reached (${reason})`, options);
  }
}

/**
 * The processor read the request and refused it without performing it: a validation error
 * (400/422), bad credentials (401/403), an unknown payment (404). Not performed, but sending it
 * again will not help: an operator must look (`errorCode` is the processor's code, kept raw).
 */
export class ProcessorRejectedRequestError extends OperationNotPerformedError {
  override readonly name: string = 'ProcessorRejectedRequestError';
  constructor(
    readonly processor: string,
    readonly status: number,
    readonly errorCode: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(`${processor} rejected the request (HTTP ${status}${errorCode ? `, code ${errorCode}` : ''})`, options);
  }
}

/** Why the outcome of a call that may have been performed is unknown. */
export type MaybeSentReason = 'timeout' | 'connection-reset' | 'server-error' | 'unparseable-answer' | 'in-progress' | 'idempotency-conflict';

/**
 * Maybe sent: the request may have been performed (reset after write, no answer in time, a 5xx,
 * an answer we cannot read, the processor still busy with the first request under this key).
 * Never sent again as a new operation: only recovered (ProcessorAdapter.recover).
 */
export class ProcessorMaybeSentError extends Error {
  override readonly name: string = 'ProcessorMaybeSentError';
  constructor(
    readonly processor: string,
    readonly reason: MaybeSentReason,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(`${processor} may have performed the operation (${reason}${status ? `, HTTP ${status}` : ''})`, options);
  }
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_NODATA']);

/**
 * Classifies what `fetch` threw. Only errors that happen before a connection exists are "not
 * reached"; everything else — a reset, a closed socket, an abort (our deadline may fire after the
 * body was written) — may have reached the processor.
 */
export function classifyFetchFailure(processor: string, error: unknown, deadline: AbortSignal): ProcessorNotReachedError | ProcessorMaybeSentError {
  const code = causeCode(error);
  if (code !== undefined && DNS_CODES.has(code)) return new ProcessorNotReachedError(processor, 'dns', { cause: error });
  if (code === 'ECONNREFUSED') return new ProcessorNotReachedError(processor, 'connection-refused', { cause: error });
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return new ProcessorNotReachedError(processor, 'connect-timeout', { cause: error });
  if (deadline.aborted) return new ProcessorMaybeSentError(processor, 'timeout', undefined, { cause: error });
  return new ProcessorMaybeSentError(processor, 'connection-reset', undefined, { cause: error });
}

/** The first system error code in the cause chain (undici wraps them: TypeError → cause). */
function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'ABORT_ERR') return code;
    // undici reports a connection error inside an AggregateError when it tried several addresses.
    if (current instanceof AggregateError && current.errors[0] instanceof Error) current = current.errors[0];
    else current = current.cause;
  }
  return undefined;
}
