import * as z from 'zod';
import { processorBaseUrl } from '../transport/base-url.js';

/**
 * One Checkout.com processing channel as the adapter needs it. `secretKey` comes from the secret
 * named by processor.credentialsArn (SPEC 4.7), never from DynamoDB, never logged.
 */
export const checkoutComAdapterConfig = z.object({
  baseUrl: processorBaseUrl,
  secretKey: z.string().min(1),
  processingChannelId: z.string().regex(/^pc_\w{26}$/, 'a processing channel id is pc_ and 26 characters'),
  timeoutMs: z.int().positive().max(60_000).default(10_000),
});
export type CheckoutComAdapterConfig = z.infer<typeof checkoutComAdapterConfig>;

/**
 * The secret's shape: the secret API key, and the account's base-URL prefix (Dashboard →
 * Developers). `baseUrl` overrides the endpoint (https, or http to a loopback fake).
 */
export const checkoutComCredentials = z.object({
  secretKey: z.string().min(1),
  urlPrefix: z
    .string()
    .regex(/^[a-z0-9]+$/)
    .optional(),
  sandbox: z.boolean().default(false),
  baseUrl: processorBaseUrl.optional(),
});

/** The one given, or https://{prefix}.api[.sandbox].checkout.com (api-reference.checkout.com "Base URLs"). */
export function checkoutComBaseUrl(credentials: z.infer<typeof checkoutComCredentials>): string {
  if (credentials.baseUrl) return credentials.baseUrl;
  const host = credentials.sandbox ? 'api.sandbox.checkout.com' : 'api.checkout.com';
  return `https://${credentials.urlPrefix ? `${credentials.urlPrefix}.` : ''}${host}`;
}
