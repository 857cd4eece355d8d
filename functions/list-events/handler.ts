import { authenticator } from '../../lib/composition/core.js';
import { merchantEventsDeps } from '../../lib/composition/merchant-events.js';
import { eventsQuery } from './query.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { merchantParams } from '../../lib/http/params.js';
import { listMerchantEvents } from '../../lib/core/webhooks/merchant-events.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.15 — the merchant's events with their delivery attempts, oldest first. */
export const handler = apiHandler(
  routes.listEvents,
  {
    authenticator,
    params: merchantParams,
    query: eventsQuery,
  },
  async ({ params, query, principal }) => ({
    body: await listMerchantEvents(merchantEventsDeps, principal, params.merchantRef, { limit: query.limit, ...(query.after ? { after: query.after } : {}) }),
  }),
);
