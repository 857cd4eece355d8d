import { z } from 'zod';
import { authenticator } from '../../lib/composition/core.js';
import { merchantEventsDeps } from '../../lib/composition/merchant-events.js';
import { EVENT_ID } from '../../lib/events/payment-event.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { merchantParams } from '../../lib/http/params.js';
import { listMerchantEvents } from '../../lib/webhooks/merchant-events.js';

const query = z
  .object({
    after: z.string().regex(EVENT_ID, 'Expected an event id').optional(),
    limit: z.coerce.number().int().min(1).max(100).default(50),
  })
  .strict();

/** SPEC 4.15 — the merchant's events with their delivery attempts, oldest first. */
export const handler = apiHandler(
  {
    route: 'GET /config/merchants/{merchantRef}/events',
    access: { kind: 'platformOrPermission', permission: 'MANAGE_WEBHOOKS' },
    authenticator,
    params: merchantParams,
    query,
  },
  async ({ params, query, principal }) => ({
    body: await listMerchantEvents(merchantEventsDeps, principal, params.merchantRef, { limit: query.limit, ...(query.after ? { after: query.after } : {}) }),
  }),
);
