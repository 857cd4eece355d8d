import { authenticator } from '../../lib/composition/core.js';
import { webhookConfigDeps } from '../../lib/composition/webhook-secrets.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { merchantParams, noQuery } from '../../lib/http/params.js';
import { rotateWebhookSecret } from '../../lib/webhooks/webhook-config.js';

/** SPEC 4.15 — a new signing secret, shown once; the previous one signs for 24 h more. */
export const handler = apiHandler(
  {
    route: 'POST /config/merchants/{merchantRef}/configs/webhooks/rotate-secret',
    access: { kind: 'platformOrPermission', permission: 'MANAGE_WEBHOOKS' },
    authenticator,
    params: merchantParams,
    query: noQuery,
  },
  async ({ params, principal }) => ({
    body: await rotateWebhookSecret(webhookConfigDeps, principal, params.merchantRef),
  }),
);
