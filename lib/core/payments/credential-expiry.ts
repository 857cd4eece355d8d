import type { PaymentCredential } from '../checkout/payment-data.js';
import { CheckoutPayloadInvalidError } from '../errors.js';

/** The last place on earth where a month is still running is UTC−12. */
const LATEST_TIMEZONE_OFFSET_MS = 12 * 3600 * 1000;

/**
 * SPEC 4.3 step 6: a token or card whose expiry month has passed is 422 and the payment
 * stays STARTED (checked before the lease), so the shopper can pick another card. A card
 * is valid through the last day of its expiry month, wherever the shopper is.
 */
export function assertNotExpired(credential: Pick<PaymentCredential, 'kind' | 'expiryMonth' | 'expiryYear'>, now: number): void {
  const latest = new Date(now - LATEST_TIMEZONE_OFFSET_MS);
  const current = latest.getUTCFullYear() * 12 + latest.getUTCMonth(); // months since year 0
  const expiry = Number(credential.expiryYear) * 12 + (Number(credential.expiryMonth) - 1);
  if (expiry < current) {
    throw new CheckoutPayloadInvalidError(`The ${credential.kind === 'token' ? 'token' : 'card'} has expired; use another card.`, {
      cause: new Error('credential expiry month has passed'),
    });
  }
}
