import { authenticator, configRepository } from '../../lib/composition/core.js';
import { webhookConfigRepository } from '../../lib/composition/webhooks.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { merchantParams, noQuery } from '../../lib/http/params.js';
import { getWebhookConfig } from '../../lib/core/webhooks/webhook-config.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.15 — reads the webhook configuration, never a secret (no KMS here). */
export const handler = apiHandler(
  routes.getWebhookConfig,
  {
    authenticator,
    params: merchantParams,
    query: noQuery,
  },
  async ({ params, principal }) => ({
    body: await getWebhookConfig({ merchants: configRepository, webhooks: webhookConfigRepository }, principal, params.merchantRef),
  }),
);
