import { z } from 'zod';

/**
 * 4.15 response bodies as strict schemas (OpenAPI is generated from them; the tests parse
 * real answers with them, so no stored field — a sealed secret, a version — can slip out).
 */
const isoTime = z.iso.datetime();
const signingSecret = z.string().regex(/^whsec_[A-Za-z0-9+/]{43}=$/).describe('Standard Webhooks secret, shown only in this answer');

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
