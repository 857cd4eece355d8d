import { authenticator, baseUrlOf } from '../../lib/composition/core.js';
import { hostedSessionDeps } from '../../lib/composition/payment-links.js';
import { idempotentApiHandler } from '../../lib/composition/idempotent-api-handler.js';
import { noQuery, orderParams } from '../../lib/http/params.js';
import { createHostedSession } from '../../lib/core/orders/hosted-sessions.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.9 — a hosted-session token and checkout URL for one order. */
export const handler = idempotentApiHandler(
  routes.createHostedSession,
  {
    authenticator,
    params: orderParams,
    query: noQuery,
  },
  async ({ params, principal, event }) => ({
    status: 201,
    body: await createHostedSession(hostedSessionDeps, principal, params.outletId, params.orderRef, baseUrlOf(event)),
  }),
);
