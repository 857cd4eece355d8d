/**
 * A refusal of the sandbox SRC network, in its own wire format (docs/sandbox-src-contract.md):
 * `{ "error": { "reason", "message", …extra } }`. Messages are fixed, safe texts: never card
 * data, identities or session ids.
 */
export type SrcErrorReason =
  | 'INVALID_REQUEST'
  | 'INVALID_DPA'
  | 'INVALID_IDENTITY'
  | 'SESSION_NOT_FOUND'
  | 'ACCOUNT_LOCKED'
  | 'NO_PENDING_OTP'
  | 'RESEND_LIMIT'
  | 'OTP_INVALID'
  | 'OTP_EXPIRED'
  | 'RETRIES_EXCEEDED'
  | 'NOT_AUTHENTICATED'
  | 'SERVICE_ERROR'
  | 'INVALID_CARD'
  | 'UNKNOWN_CARD'
  | 'CHECKOUT_FAILED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  // 429s of the abuse limits (rate-limits.ts), each with `retryAfterSeconds`:
  | 'OTP_ATTEMPTS_EXCEEDED'
  | 'LOOKUP_LIMIT'
  | 'SESSION_LIMIT';

export class SrcError extends Error {
  constructor(
    readonly status: number,
    readonly reason: SrcErrorReason,
    message: string,
    /** Extra public fields of the error object, e.g. `remainingAttempts`. */
    readonly extra: Record<string, number | string> = {},
  ) {
    super(message);
    this.name = 'SrcError';
  }

  toBody(): { error: Record<string, unknown> } {
    return { error: { reason: this.reason, message: this.message, ...this.extra } };
  }
}

export const sessionNotFound = () => new SrcError(404, 'SESSION_NOT_FOUND', 'The Click to Pay session is unknown or has expired.');
export const notAuthenticated = () => new SrcError(401, 'NOT_AUTHENTICATED', 'The consumer is not authenticated.');
