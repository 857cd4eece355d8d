/**
 * How a call to a 3DS Server failed, as far as at-most-once needs to know:
 *
 * - `not-sent`: the request certainly did not reach the server, or was refused before any
 *   processing (connection refused, name not resolved, a 4xx that is no EMV Erro, a request
 *   this adapter refused to send). Nothing happened there: the call may be made again.
 * - `maybe-sent`: no usable answer (deadline, reset, 5xx without an Erro, unreadable body):
 *   the server may have processed it. An AReq that failed so is never sent again for the
 *   attempt; the attempt is recovered by its transaction id (ThreeDsServer.recover, lib/core/ports/three-ds-server.ts).
 * - `erro`: the server answered with an EMV Erro message: it processed the request and refused
 *   it (a missing or malformed field, an unreachable directory server…). `erro` holds its codes.
 *
 * The message names the endpoint and the kind only; `erro.errorDetail` is redacted of card
 * numbers and cut short. No account number, authentication value or API key is ever in it.
 */
export type ThreeDsFailureKind = 'not-sent' | 'maybe-sent' | 'erro';

export interface ErroSummary {
  errorCode: string;
  errorComponent: string;
  errorDescription: string;
  errorDetail: string;
}

export class ThreeDsServerCallError extends Error {
  override readonly name: string = 'ThreeDsServerCallError';
  readonly kind: ThreeDsFailureKind;
  readonly endpoint: string;
  readonly status: number | undefined;
  readonly erro: ErroSummary | undefined;

  constructor(kind: ThreeDsFailureKind, endpoint: string, options: { status?: number; erro?: ErroSummary; cause?: unknown; reason?: string } = {}) {
    const what = options.erro
      ? `Erro ${options.erro.errorCode} (${options.erro.errorComponent}) ${options.erro.errorDescription}`
      : (options.reason ?? (options.status ? `HTTP ${options.status}` : 'no answer'));
    super(`3DS Server ${endpoint}: ${kind}: ${what}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.endpoint = endpoint;
    this.status = options.status;
    this.erro = options.erro;
  }

  /** True when the request certainly had no effect at the 3DS Server. */
  get certainlyNotSent(): boolean {
    return this.kind === 'not-sent';
  }
}
