/**
 * The service's errors, in the core's words: each names its SPEC §2 `code` and carries the
 * data a caller needs (how long to wait, which fields were wrong), never an HTTP status or
 * header — the edge maps a code to its status, title and headers (lib/http/error-status.ts).
 * `detail` is what a client may see and must never carry card data, tokens, keys or a
 * dependency's raw text; anything diagnostic goes in `cause`, which is logged (redacted) but
 * never serialized to clients.
 *
 * Every error class names itself (`override readonly name: string = '…'`): the deployed bundles
 * are minified, where a class's own name is mangled, and the name is what a log line says
 * (lib/core/ports/logger.ts). test/deploy/bundle-contents.test.ts checks it in a bundle.
 */
export interface FieldIssue {
  path: string;
  message: string;
}

export interface DomainErrorOptions {
  cause?: unknown;
  /** When the same request may succeed: the edge answers it as `Retry-After` (whole seconds, at least 1). */
  retryAfterMs?: number;
  /** Which input fields were wrong (INVALID_REQUEST). */
  errors?: FieldIssue[];
}

export abstract class DomainError extends Error {
  abstract readonly code: string;
  readonly retryAfterMs: number | undefined;
  readonly errors: FieldIssue[] | undefined;

  constructor(detail: string, options: DomainErrorOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.retryAfterMs = options.retryAfterMs;
    this.errors = options.errors;
  }

  get detail(): string {
    return this.message;
  }
}

export class InvalidRequestError extends DomainError {
  override readonly name: string = 'InvalidRequestError';
  readonly code = 'INVALID_REQUEST';
}

export class UnauthenticatedError extends DomainError {
  override readonly name: string = 'UnauthenticatedError';
  readonly code = 'UNAUTHENTICATED';
  constructor(detail = 'A valid bearer token is required.', options: DomainErrorOptions = {}) {
    super(detail, options);
  }
}

export class PermissionDeniedError extends DomainError {
  override readonly name: string = 'PermissionDeniedError';
  readonly code = 'PERMISSION_DENIED';
}

export class PlatformTokenRequiredError extends DomainError {
  override readonly name: string = 'PlatformTokenRequiredError';
  readonly code = 'PLATFORM_TOKEN_REQUIRED';
  constructor(detail = 'This endpoint requires a platform-level token.', options?: DomainErrorOptions) {
    super(detail, options);
  }
}

export class ClickToPayNotEnabledError extends DomainError {
  override readonly name: string = 'ClickToPayNotEnabledError';
  readonly code = 'CLICK_TO_PAY_NOT_ENABLED';
  constructor(detail = 'Click to Pay is not enabled for this merchant.', options?: DomainErrorOptions) {
    super(detail, options);
  }
}

export class DirectWalletNotEnabledError extends DomainError {
  override readonly name: string = 'DirectWalletNotEnabledError';
  readonly code = 'DIRECT_WALLET_NOT_ENABLED';
  constructor(detail = 'Direct Wallet payments are not enabled for this tenant.', options?: DomainErrorOptions) {
    super(detail, options);
  }
}

export class NotFoundError extends DomainError {
  override readonly name: string = 'NotFoundError';
  readonly code = 'NOT_FOUND';
  constructor(detail = 'The requested resource was not found.', options?: DomainErrorOptions) {
    super(detail, options);
  }
}

export class PlatformNotEnabledError extends DomainError {
  override readonly name: string = 'PlatformNotEnabledError';
  readonly code = 'PLATFORM_NOT_ENABLED';
}

export class PaymentStateConflictError extends DomainError {
  override readonly name: string = 'PaymentStateConflictError';
  readonly code = 'PAYMENT_STATE_CONFLICT';
}

export class CheckoutResponseReplayedError extends DomainError {
  override readonly name: string = 'CheckoutResponseReplayedError';
  readonly code = 'CHECKOUT_RESPONSE_REPLAYED';
  constructor(detail = 'This checkout response was already used for another payment.', options?: DomainErrorOptions) {
    super(detail, options);
  }
}

/** Not in SPEC §2's table: 4.7 would move an outlet or a merchant to another owner. */
export class OnboardingConflictError extends DomainError {
  override readonly name: string = 'OnboardingConflictError';
  readonly code = 'ONBOARDING_CONFLICT';
}

/** SPEC §2, 4.13: another request with the same Idempotency-Key is still running. */
export class IdempotencyKeyInUseError extends DomainError {
  override readonly name: string = 'IdempotencyKeyInUseError';
  readonly code = 'IDEMPOTENCY_KEY_IN_USE';
  constructor(detail = 'A request with this Idempotency-Key is still being processed; retry it later.', options: DomainErrorOptions = {}) {
    super(detail, options);
  }
}

/** Why a link does not open: its state, its order ended unpaid (UNAVAILABLE), or Click to Pay is off for its merchant (DISABLED). */
export type PaymentLinkInactiveReason = 'EXPIRED' | 'CANCELLED' | 'PAID' | 'UNAVAILABLE' | 'DISABLED';

/** SPEC §2: the payment link is expired, cancelled or already paid (the public page renders it as HTML). */
export class PaymentLinkInactiveError extends DomainError {
  override readonly name: string = 'PaymentLinkInactiveError';
  readonly code = 'PAYMENT_LINK_INACTIVE';
  readonly reason: PaymentLinkInactiveReason;
  constructor(reason: PaymentLinkInactiveReason, options?: DomainErrorOptions) {
    super('The payment link is expired, cancelled or already paid.', options);
    this.reason = reason;
  }
}

/** The 422 family: the checkout response could not be used. Details stay generic. */
export class CheckoutSignatureInvalidError extends DomainError {
  override readonly name: string = 'CheckoutSignatureInvalidError';
  readonly code = 'CHECKOUT_SIGNATURE_INVALID';
  constructor(detail = 'The checkout response signature could not be verified.', options?: DomainErrorOptions) {
    super(detail, options);
  }
}

export class CheckoutExpiredError extends DomainError {
  override readonly name: string = 'CheckoutExpiredError';
  readonly code = 'CHECKOUT_EXPIRED';
  constructor(detail = 'The checkout response is too old or not yet valid.', options?: DomainErrorOptions) {
    super(detail, options);
  }
}

export class CheckoutDecryptionFailedError extends DomainError {
  override readonly name: string = 'CheckoutDecryptionFailedError';
  readonly code = 'CHECKOUT_DECRYPTION_FAILED';
  constructor(detail = 'The checkout payload could not be decrypted.', options?: DomainErrorOptions) {
    super(detail, options);
  }
}

export class CheckoutPayloadInvalidError extends DomainError {
  override readonly name: string = 'CheckoutPayloadInvalidError';
  readonly code = 'CHECKOUT_PAYLOAD_INVALID';
}

export class AmountMismatchError extends DomainError {
  override readonly name: string = 'AmountMismatchError';
  readonly code = 'AMOUNT_MISMATCH';
  constructor(detail = 'The payment data names an amount or currency other than the order’s.', options?: DomainErrorOptions) {
    super(detail, options);
  }
}

export class AmountExceedsAvailableError extends DomainError {
  override readonly name: string = 'AmountExceedsAvailableError';
  readonly code = 'AMOUNT_EXCEEDS_AVAILABLE';
  constructor(detail = 'The amount exceeds what is left to capture or refund.', options?: DomainErrorOptions) {
    super(detail, options);
  }
}

/** SPEC §2, 4.8: a return or cancel URL the merchant's `redirectOrigins` do not allow (lib/core/domain/redirect-url.ts). */
export class InvalidRedirectUrlError extends DomainError {
  override readonly name: string = 'InvalidRedirectUrlError';
  readonly code = 'INVALID_REDIRECT_URL';
}

/** SPEC §2, 4.13: the same Idempotency-Key with a different method, path, query, body or caller. */
export class IdempotencyKeyReusedError extends DomainError {
  override readonly name: string = 'IdempotencyKeyReusedError';
  readonly code = 'IDEMPOTENCY_KEY_REUSED';
  constructor(detail = 'This Idempotency-Key was already used for a different request.', options?: DomainErrorOptions) {
    super(detail, options);
  }
}

export class AuthorizationUnavailableError extends DomainError {
  override readonly name: string = 'AuthorizationUnavailableError';
  readonly code = 'AUTHORIZATION_UNAVAILABLE';
  constructor(detail = 'The authorizer did not answer; the payment can be retried.', options?: DomainErrorOptions) {
    super(detail, options);
  }
}

export class DependencyUnavailableError extends DomainError {
  override readonly name: string = 'DependencyUnavailableError';
  readonly code = 'DEPENDENCY_UNAVAILABLE';
  constructor(detail = 'A dependency is temporarily unavailable; retry later.', options: DomainErrorOptions = {}) {
    super(detail, options);
  }
}

export class InternalError extends DomainError {
  override readonly name: string = 'InternalError';
  readonly code = 'INTERNAL_ERROR';
  constructor(detail = 'An unexpected error occurred.', options?: DomainErrorOptions) {
    super(detail, options);
  }
}
