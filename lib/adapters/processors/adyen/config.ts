import * as z from 'zod';
import { processorBaseUrl } from '../transport/base-url.js';

/**
 * One Adyen merchant account as the adapter needs it. `apiKey` comes from the secret named by
 * the merchant's processor.credentialsArn (SPEC 4.7) — never from DynamoDB, never logged.
 * `returnUrl` is required by PaymentRequest (v71) even for a payment that never redirects: the
 * hosted page's address.
 */
export const adyenAdapterConfig = z.object({
  baseUrl: processorBaseUrl,
  apiKey: z.string().min(1),
  merchantAccount: z.string().min(1),
  returnUrl: z.url().max(8000),
  timeoutMs: z.int().positive().max(60_000).default(10_000),
});
export type AdyenAdapterConfig = z.infer<typeof adyenAdapterConfig>;

/**
 * The secret's shape (Secrets Manager JSON or SSM SecureString JSON): the API key, and for live
 * the company's endpoint prefix (Customer Area → Developers → API URLs). `baseUrl` overrides the
 * endpoint (https, or http to a loopback fake: `npm start` with the processor fakes, the tests).
 */
export const adyenCredentials = z.object({
  apiKey: z.string().min(1),
  liveUrlPrefix: z
    .string()
    .regex(/^[a-z0-9-]+$/)
    .optional(),
  baseUrl: processorBaseUrl.optional(),
});

/** Checkout API v71 base URL: the one given, the test endpoint, or the live one under the company's prefix. */
export function adyenCheckoutBaseUrl(credentials: z.infer<typeof adyenCredentials>): string {
  if (credentials.baseUrl) return credentials.baseUrl;
  return credentials.liveUrlPrefix
    ? `https://${credentials.liveUrlPrefix}-checkout-live.adyenpayments.com/checkout/v71`
    : 'https://checkout-test.adyen.com/v71';
}

/**
 * The notification HMAC key secret: the hex key as the Customer Area shows it, or JSON
 * `{"hmacKey": "…", "previousHmacKey": "…"}` while a new key is rolled out (both verify).
 */
const hexKey = z.string().regex(/^(?:[0-9a-fA-F]{2})+$/);
const hmacKeySecret = z.union([
  hexKey.transform((key) => [key]),
  z
    .object({ hmacKey: hexKey, previousHmacKey: hexKey.optional() })
    .transform((keys) => [keys.hmacKey, ...(keys.previousHmacKey ? [keys.previousHmacKey] : [])]),
]);

/** The merchant's HMAC keys, current first; an error that never quotes the secret otherwise. */
export function adyenHmacKeys(secret: string): string[] {
  const trimmed = secret.trim();
  let value: unknown = trimmed;
  if (trimmed.startsWith('{')) {
    try {
      value = JSON.parse(trimmed);
    } catch {
      throw new Error('the Adyen HMAC key secret is neither a hex key nor JSON');
    }
  }
  const parsed = hmacKeySecret.safeParse(value);
  if (!parsed.success) throw new Error('the Adyen HMAC key secret is neither a hex key nor {hmacKey, previousHmacKey?}');
  return parsed.data;
}
