import { z } from 'zod';
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
 * the company's endpoint prefix (Customer Area → Developers → API URLs).
 */
export const adyenCredentials = z.object({
  apiKey: z.string().min(1),
  liveUrlPrefix: z
    .string()
    .regex(/^[a-z0-9-]+$/)
    .optional(),
});

/** Checkout API v71 base URL: the test endpoint, or the live one under the company's prefix. */
export function adyenCheckoutBaseUrl(credentials: z.infer<typeof adyenCredentials>): string {
  return credentials.liveUrlPrefix
    ? `https://${credentials.liveUrlPrefix}-checkout-live.adyenpayments.com/checkout/v71`
    : 'https://checkout-test.adyen.com/v71';
}
