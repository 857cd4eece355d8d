import { authenticator } from '../../lib/composition/core.js';
import { webhookConfigDeps } from '../../lib/composition/webhook-secrets.js';
import { idempotentApiHandler } from '../../lib/composition/idempotent-api-handler.js';
import { merchantParams, noQuery } from '../../lib/http/params.js';
import { rotateWebhookSecret } from '../../lib/core/webhooks/webhook-config.js';
import { routes } from '../../lib/http/routes.js';

/**
 * SPEC 4.15 — a new signing secret, shown once; the previous one signs for 24 h more. Takes an
 * Idempotency-Key like every POST that creates something (SPEC 4.13): a retried rotation gets the
 * same secret back, not a third one. The stored answer is sealed with a key derived from the
 * Idempotency-Key, which the table never holds (lib/http/idempotency-seal.ts).
 */
export const handler = idempotentApiHandler(
  routes.rotateWebhookSecret,
  {
    authenticator,
    params: merchantParams,
    query: noQuery,
  },
  async ({ params, principal }) => ({
    body: await rotateWebhookSecret(webhookConfigDeps, principal, params.merchantRef),
  }),
);
