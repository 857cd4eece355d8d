import * as z from 'zod';
import { parseEnv } from './parse-env.js';

/**
 * The symmetric KMS key that seals merchants' webhook signing secrets (SPEC 4.15): a key id,
 * key ARN or alias. Loaded only by the functions that seal or open those secrets
 * (lib/composition/webhook-secrets.ts); serverless.yml gives it to the webhookConfig group (seal)
 * and the webhookDelivery group (open) only.
 */
const schema = z.object({
  WEBHOOK_SECRETS_KEY_ID: z.string().trim().min(1),
});

export type WebhookSecretsConfig = z.output<typeof schema>;
export const webhookSecretsConfig: WebhookSecretsConfig = parseEnv(schema);
