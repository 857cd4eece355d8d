import type { DomainError } from '../core/errors.js';

/**
 * SPEC §2 at the edge: each error code's HTTP status and title. The core names codes; only
 * this table knows what they mean in HTTP. A code missing here is answered as a 500 (and the
 * OpenAPI generator refuses to run: infra/openapi/components.ts).
 */
export const ERROR_STATUS: Readonly<Record<string, { status: number; title: string }>> = {
  INVALID_REQUEST: { status: 400, title: 'Bad Request' },
  UNAUTHENTICATED: { status: 401, title: 'Unauthorized' },
  PERMISSION_DENIED: { status: 403, title: 'Forbidden' },
  PLATFORM_TOKEN_REQUIRED: { status: 403, title: 'Forbidden' },
  CLICK_TO_PAY_NOT_ENABLED: { status: 403, title: 'Forbidden' },
  DIRECT_WALLET_NOT_ENABLED: { status: 403, title: 'Forbidden' },
  NOT_FOUND: { status: 404, title: 'Not Found' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method Not Allowed' },
  PLATFORM_NOT_ENABLED: { status: 409, title: 'Conflict' },
  PAYMENT_STATE_CONFLICT: { status: 409, title: 'Conflict' },
  CHECKOUT_RESPONSE_REPLAYED: { status: 409, title: 'Conflict' },
  ONBOARDING_CONFLICT: { status: 409, title: 'Conflict' },
  IDEMPOTENCY_KEY_IN_USE: { status: 409, title: 'Conflict' },
  PAYMENT_LINK_INACTIVE: { status: 410, title: 'Gone' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Content Too Large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported Media Type' },
  CHECKOUT_SIGNATURE_INVALID: { status: 422, title: 'Unprocessable Content' },
  CHECKOUT_EXPIRED: { status: 422, title: 'Unprocessable Content' },
  CHECKOUT_DECRYPTION_FAILED: { status: 422, title: 'Unprocessable Content' },
  CHECKOUT_PAYLOAD_INVALID: { status: 422, title: 'Unprocessable Content' },
  AMOUNT_MISMATCH: { status: 422, title: 'Unprocessable Content' },
  AMOUNT_EXCEEDS_AVAILABLE: { status: 422, title: 'Unprocessable Content' },
  INVALID_REDIRECT_URL: { status: 422, title: 'Unprocessable Content' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, title: 'Unprocessable Content' },
  INTERNAL_ERROR: { status: 500, title: 'Internal Server Error' },
  AUTHORIZATION_UNAVAILABLE: { status: 502, title: 'Bad Gateway' },
  DEPENDENCY_UNAVAILABLE: { status: 503, title: 'Service Unavailable' },
};

const INTERNAL = ERROR_STATUS.INTERNAL_ERROR!;

/** Codes a client is told to retry even when the error does not say when: after a second. */
const RETRY_BY_DEFAULT = new Set(['DEPENDENCY_UNAVAILABLE', 'IDEMPOTENCY_KEY_IN_USE']);

export function statusOf(error: Pick<DomainError, 'code'>): { status: number; title: string } {
  return ERROR_STATUS[error.code] ?? INTERNAL;
}

/** The answer's headers an error implies: the bearer challenge of a 401, a Retry-After when it says when. */
export function errorHeaders(error: Pick<DomainError, 'code' | 'retryAfterMs'>): Record<string, string> {
  const headers: Record<string, string> = {};
  if (error.code === 'UNAUTHENTICATED') headers['WWW-Authenticate'] = 'Bearer';
  const wait = error.retryAfterMs ?? (RETRY_BY_DEFAULT.has(error.code) ? 1000 : undefined);
  if (wait !== undefined) headers['Retry-After'] = retryAfterSeconds(wait);
  return headers;
}

/** `Retry-After` in whole seconds, rounded up, at least 1. */
export const retryAfterSeconds = (ms: number): string => String(Math.max(1, Math.ceil(ms / 1000)));
