import { authenticator } from '../../lib/composition/core.js';
import { webhookConfigDeps } from '../../lib/composition/webhook-secrets.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { merchantParams, noQuery } from '../../lib/http/params.js';
import { putWebhookConfig } from '../../lib/core/webhooks/webhook-config.js';
import { webhookConfigBody } from './schema.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.15 — webhook URL; the first PUT creates the signing secret and shows it once. */
export const handler = apiHandler(
  routes.putWebhookConfig,
  {
    authenticator,
    params: merchantParams,
    query: noQuery,
    body: webhookConfigBody,
  },
  async ({ params, body, principal }) => ({
    body: await putWebhookConfig(webhookConfigDeps, principal, params.merchantRef, body),
  }),
);
