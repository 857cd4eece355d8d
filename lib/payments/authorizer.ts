import type { Amount } from '../domain/order.js';
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
}

export type AuthorizationOutcome =
  | { approved: true; code: string; resultCode: string }
  | { approved: false; declineCode: string; reason: string };

/** The port to the acquirer/processor. `signal` aborts when our timeout fires. */
export interface Authorizer {
  authorize(request: AuthorizationRequest, signal: AbortSignal): Promise<AuthorizationOutcome>;
}

/**
 * Calls the authorizer with a hard timeout. A timeout or transport failure is a 502 that
 * leaves the payment retryable; the idempotency key makes the retry safe.
 */
export async function authorizeWithTimeout(
  authorizer: Authorizer,
  request: AuthorizationRequest,
  timeoutMs: number,
): Promise<AuthorizationOutcome> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new AuthorizationUnavailableError(undefined, { cause: new Error(`authorizer timed out after ${timeoutMs} ms`) }));
    }, timeoutMs);
  });
  try {
    return await Promise.race([authorizer.authorize(request, controller.signal), timeout]);
  } catch (error) {
    if (error instanceof AuthorizationUnavailableError) throw error;
    throw new AuthorizationUnavailableError(undefined, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}
