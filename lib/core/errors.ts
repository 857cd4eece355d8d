/**
 * Typed domain errors. Each maps to one row of SPEC §2. `detail` is what the client sees
 * and must never carry card data, tokens, keys or a dependency's raw text; anything
 * diagnostic goes in `cause`, which is logged (redacted) but never serialized to clients.
 *
 * Every error class of the service names itself (`override readonly name: string = '…'`): the
 * deployed bundles are minified, where a class's own name is mangled, and the name is what a
 * log line says (lib/core/ports/logger.ts). test/deploy/bundle-contents.test.ts checks it in a bundle.
 */
export interface FieldIssue {
  path: string;
  message: string;
}

export interface AppErrorOptions {
  cause?: unknown;
  headers?: Record<string, string>;
  errors?: FieldIssue[];
}

export abstract class AppError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  abstract readonly title: string;
  readonly headers: Record<string, string>;
  readonly errors: FieldIssue[] | undefined;

  constructor(detail: string, options: AppErrorOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.headers = options.headers ?? {};
    this.errors = options.errors;
  }

  get detail(): string {
    return this.message;
  }
}

export class InvalidRequestError extends AppError {
  override readonly name: string = 'InvalidRequestError';
  readonly status = 400;
  readonly code = 'INVALID_REQUEST';
  readonly title = 'Bad Request';
}

export class UnauthenticatedError extends AppError {
  override readonly name: string = 'UnauthenticatedError';
  readonly status = 401;
  readonly code = 'UNAUTHENTICATED';
  readonly title = 'Unauthorized';
  constructor(detail = 'A valid bearer token is required.', options: AppErrorOptions = {}) {
    super(detail, { ...options, headers: { 'WWW-Authenticate': 'Bearer', ...options.headers } });
  }
}

export class PermissionDeniedError extends AppError {
  override readonly name: string = 'PermissionDeniedError';
  readonly status = 403;
  readonly code = 'PERMISSION_DENIED';
  readonly title = 'Forbidden';
}

export class PlatformTokenRequiredError extends AppError {
  override readonly name: string = 'PlatformTokenRequiredError';
  readonly status = 403;
  readonly code = 'PLATFORM_TOKEN_REQUIRED';
  readonly title = 'Forbidden';
  constructor(detail = 'This endpoint requires a platform-level token.', options?: AppErrorOptions) {
    super(detail, options);
  }
}

export class ClickToPayNotEnabledError extends AppError {
  override readonly name: string = 'ClickToPayNotEnabledError';
  readonly status = 403;
  readonly code = 'CLICK_TO_PAY_NOT_ENABLED';
  readonly title = 'Forbidden';
  constructor(detail = 'Click to Pay is not enabled for this merchant.', options?: AppErrorOptions) {
    super(detail, options);
  }
}

export class DirectWalletNotEnabledError extends AppError {
  override readonly name: string = 'DirectWalletNotEnabledError';
  readonly status = 403;
  readonly code = 'DIRECT_WALLET_NOT_ENABLED';
  readonly title = 'Forbidden';
  constructor(detail = 'Direct Wallet payments are not enabled for this tenant.', options?: AppErrorOptions) {
    super(detail, options);
  }
}

export class NotFoundError extends AppError {
  override readonly name: string = 'NotFoundError';
  readonly status = 404;
  readonly code = 'NOT_FOUND';
  readonly title = 'Not Found';
  constructor(detail = 'The requested resource was not found.', options?: AppErrorOptions) {
    super(detail, options);
  }
}

export class MethodNotAllowedError extends AppError {
  override readonly name: string = 'MethodNotAllowedError';
  readonly status = 405;
  readonly code = 'METHOD_NOT_ALLOWED';
  readonly title = 'Method Not Allowed';
}

export class PlatformNotEnabledError extends AppError {
  override readonly name: string = 'PlatformNotEnabledError';
  readonly status = 409;
  readonly code = 'PLATFORM_NOT_ENABLED';
  readonly title = 'Conflict';
}

export class PaymentStateConflictError extends AppError {
  override readonly name: string = 'PaymentStateConflictError';
  readonly status = 409;
  readonly code = 'PAYMENT_STATE_CONFLICT';
  readonly title = 'Conflict';
}

export class CheckoutResponseReplayedError extends AppError {
  override readonly name: string = 'CheckoutResponseReplayedError';
  readonly status = 409;
  readonly code = 'CHECKOUT_RESPONSE_REPLAYED';
  readonly title = 'Conflict';
  constructor(detail = 'This checkout response was already used for another payment.', options?: AppErrorOptions) {
    super(detail, options);
  }
}

/** Not in SPEC §2's table: 4.7 would move an outlet or a merchant to another owner. */
export class OnboardingConflictError extends AppError {
  override readonly name: string = 'OnboardingConflictError';
  readonly status = 409;
  readonly code = 'ONBOARDING_CONFLICT';
  readonly title = 'Conflict';
}

/** SPEC §2, 4.13: another request with the same Idempotency-Key is still running. */
export class IdempotencyKeyInUseError extends AppError {
  override readonly name: string = 'IdempotencyKeyInUseError';
  readonly status = 409;
  readonly code = 'IDEMPOTENCY_KEY_IN_USE';
  readonly title = 'Conflict';
  constructor(detail = 'A request with this Idempotency-Key is still being processed; retry it later.', options: AppErrorOptions = {}) {
    super(detail, { ...options, headers: { 'Retry-After': '1', ...options.headers } });
  }
}

/** Why a link does not open: its state, its order ended unpaid (UNAVAILABLE), or Click to Pay is off for its merchant (DISABLED). */
export type PaymentLinkInactiveReason = 'EXPIRED' | 'CANCELLED' | 'PAID' | 'UNAVAILABLE' | 'DISABLED';

/** SPEC §2: the payment link is expired, cancelled or already paid (the public page renders it as HTML). */
export class PaymentLinkInactiveError extends AppError {
  override readonly name: string = 'PaymentLinkInactiveError';
  readonly status = 410;
  readonly code = 'PAYMENT_LINK_INACTIVE';
  readonly title = 'Gone';
  readonly reason: PaymentLinkInactiveReason;
  constructor(reason: PaymentLinkInactiveReason, options?: AppErrorOptions) {
    super('The payment link is expired, cancelled or already paid.', options);
    this.reason = reason;
  }
}

export class PayloadTooLargeError extends AppError {
  override readonly name: string = 'PayloadTooLargeError';
  readonly status = 413;
  readonly code = 'PAYLOAD_TOO_LARGE';
  readonly title = 'Content Too Large';
}

export class UnsupportedMediaTypeError extends AppError {
  override readonly name: string = 'UnsupportedMediaTypeError';
  readonly status = 415;
  readonly code = 'UNSUPPORTED_MEDIA_TYPE';
  readonly title = 'Unsupported Media Type';
  constructor(detail = 'The request body must be application/json.', options?: AppErrorOptions) {
    super(detail, options);
  }
}

/** The 422 family: the checkout response could not be used. Details stay generic. */
export class CheckoutSignatureInvalidError extends AppError {
  override readonly name: string = 'CheckoutSignatureInvalidError';
  readonly status = 422;
  readonly code = 'CHECKOUT_SIGNATURE_INVALID';
  readonly title = 'Unprocessable Content';
  constructor(detail = 'The checkout response signature could not be verified.', options?: AppErrorOptions) {
    super(detail, options);
  }
}

export class CheckoutExpiredError extends AppError {
  override readonly name: string = 'CheckoutExpiredError';
  readonly status = 422;
  readonly code = 'CHECKOUT_EXPIRED';
  readonly title = 'Unprocessable Content';
  constructor(detail = 'The checkout response is too old or not yet valid.', options?: AppErrorOptions) {
    super(detail, options);
  }
}

export class CheckoutDecryptionFailedError extends AppError {
  override readonly name: string = 'CheckoutDecryptionFailedError';
  readonly status = 422;
  readonly code = 'CHECKOUT_DECRYPTION_FAILED';
  readonly title = 'Unprocessable Content';
  constructor(detail = 'The checkout payload could not be decrypted.', options?: AppErrorOptions) {
    super(detail, options);
  }
}

export class CheckoutPayloadInvalidError extends AppError {
  override readonly name: string = 'CheckoutPayloadInvalidError';
  readonly status = 422;
  readonly code = 'CHECKOUT_PAYLOAD_INVALID';
  readonly title = 'Unprocessable Content';
}

export class AmountMismatchError extends AppError {
  override readonly name: string = 'AmountMismatchError';
  readonly status = 422;
  readonly code = 'AMOUNT_MISMATCH';
  readonly title = 'Unprocessable Content';
  constructor(detail = 'The payment data names an amount or currency other than the order’s.', options?: AppErrorOptions) {
    super(detail, options);
  }
}

export class AmountExceedsAvailableError extends AppError {
  override readonly name: string = 'AmountExceedsAvailableError';
  readonly status = 422;
  readonly code = 'AMOUNT_EXCEEDS_AVAILABLE';
  readonly title = 'Unprocessable Content';
  constructor(detail = 'The amount exceeds what is left to capture or refund.', options?: AppErrorOptions) {
    super(detail, options);
  }
}

/** SPEC §2, 4.8: a return or cancel URL the merchant's `redirectOrigins` do not allow (lib/core/domain/redirect-url.ts). */
export class InvalidRedirectUrlError extends AppError {
  override readonly name: string = 'InvalidRedirectUrlError';
  readonly status = 422;
  readonly code = 'INVALID_REDIRECT_URL';
  readonly title = 'Unprocessable Content';
}

/** SPEC §2, 4.13: the same Idempotency-Key with a different method, path, query, body or caller. */
export class IdempotencyKeyReusedError extends AppError {
  override readonly name: string = 'IdempotencyKeyReusedError';
  readonly status = 422;
  readonly code = 'IDEMPOTENCY_KEY_REUSED';
  readonly title = 'Unprocessable Content';
  constructor(detail = 'This Idempotency-Key was already used for a different request.', options?: AppErrorOptions) {
    super(detail, options);
  }
}

export class AuthorizationUnavailableError extends AppError {
  override readonly name: string = 'AuthorizationUnavailableError';
  readonly status = 502;
  readonly code = 'AUTHORIZATION_UNAVAILABLE';
  readonly title = 'Bad Gateway';
  constructor(detail = 'The authorizer did not answer; the payment can be retried.', options?: AppErrorOptions) {
    super(detail, options);
  }
}

export class DependencyUnavailableError extends AppError {
  override readonly name: string = 'DependencyUnavailableError';
  readonly status = 503;
  readonly code = 'DEPENDENCY_UNAVAILABLE';
  readonly title = 'Service Unavailable';
  constructor(detail = 'A dependency is temporarily unavailable; retry later.', options: AppErrorOptions = {}) {
    super(detail, { ...options, headers: { 'Retry-After': '1', ...options.headers } });
  }
}

export class InternalError extends AppError {
  override readonly name: string = 'InternalError';
  readonly status = 500;
  readonly code = 'INTERNAL_ERROR';
  readonly title = 'Internal Server Error';
  constructor(detail = 'An unexpected error occurred.', options?: AppErrorOptions) {
    super(detail, options);
  }
}
