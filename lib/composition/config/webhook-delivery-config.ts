import * as z from 'zod';
import { parseEnv } from './parse-env.js';

/**
 * The delivery worker's settings. WEBHOOK_LOOPBACK_DELIVERY: sandbox merchants may register an
 * http URL on a loopback host (SPEC 4.15) — meaningful only where the merchant's receiver
 * shares the machine, i.e. the local stack, which sets `allowed`. Deployed, a loopback address
 * is the Lambda's own sandbox (its Runtime API listens there), so the default refuses it.
 */
const schema = z.object({
  WEBHOOK_LOOPBACK_DELIVERY: z.enum(['allowed', 'refused']).default('refused'),
});

export type WebhookDeliveryConfig = z.output<typeof schema>;
export const webhookDeliveryConfig: WebhookDeliveryConfig = parseEnv(schema);
