import * as z from 'zod';
import { EVENT_TYPES } from '../core/events/payment-event.js';

/**
 * 4.15 response bodies as strict schemas (OpenAPI is generated from them; the tests parse
 * real answers with them, so no stored field — a sealed secret, a version — can slip out).
 */
const isoTime = z.iso.datetime();
const signingSecret = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/]{43}=$/)
  .describe('Standard Webhooks secret, shown only in this answer');

export const webhookConfigPutResource = z.strictObject({
  url: z.string(),
  enabled: z.boolean(),
  signingSecret: signingSecret.optional().describe('Only when this PUT created the configuration: store it, it is never shown again'),
});

export const webhookConfigResource = z.strictObject({
  url: z.string(),
  enabled: z.boolean(),
  createdAt: isoTime,
  updatedAt: isoTime,
  secretRotatedAt: isoTime.optional(),
});

export const webhookSecretRotationResource = z.strictObject({
  signingSecret,
  previousSecretExpiresAt: isoTime.describe('Until then the previous secret also signs every delivery'),
});

const eventType = z.enum(EVENT_TYPES);

/** One event as the merchant sees it: the body its webhook receives, plus the deliveries. */
export const merchantEventResource = z.strictObject({
  id: z
    .string()
    .regex(/^evt_[0-9a-f]{28}$/)
    .describe('Also the webhook-id header of every delivery; ids sort by creation time'),
  type: eventType,
  createdAt: isoTime,
  data: z.record(z.string(), z.unknown()).describe('The payment resource with orderRef, outletId and merchantRef; payment_link.paid adds linkRef'),
  delivery: z.strictObject({
    status: z.enum(['PENDING', 'DELIVERED', 'FAILED', 'NOT_CONFIGURED']),
    attempts: z.array(
      z.strictObject({
        at: isoTime,
        status: z.number().int().optional().describe('The receiver’s HTTP status'),
        error: z.string().optional().describe('timeout, connection, dns, blocked-address, tls, invalid-url, secrets-unavailable or not-configured'),
        durationMs: z.number().int().nonnegative(),
      }),
    ),
    nextAttemptAt: isoTime.optional(),
  }),
});

export const merchantEventsResource = z.strictObject({
  events: z.array(merchantEventResource),
  next: z.string().optional().describe('Pass as `after` for the next page; absent on the last page'),
});

export const redeliveryResource = z.strictObject({ id: z.string(), status: z.literal('PENDING') });
