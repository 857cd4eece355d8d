import { authenticator, baseUrlOf } from '../../lib/composition/core.js';
import { hostedSessionDeps } from '../../lib/composition/payment-links.js';
import { idempotentApiHandler } from '../../lib/composition/idempotent-api-handler.js';
import { noQuery, orderParams } from '../../lib/http/params.js';
import { createHostedSession } from '../../lib/core/orders/hosted-sessions.js';

/** SPEC 4.9 — a hosted-session token and checkout URL for one order. */
export const handler = idempotentApiHandler(
  {
    route: 'POST /transactions/outlets/{outletId}/orders/{orderRef}/hosted-sessions',
    access: { kind: 'permission', permission: 'CREATE_ORDER' },
    idempotency: 'supported', // Idempotency-Key (SPEC 4.13)
    authenticator,
    params: orderParams,
    query: noQuery,
  },
  async ({ params, principal, event }) => ({
    status: 201,
    body: await createHostedSession(hostedSessionDeps, principal, params.outletId, params.orderRef, baseUrlOf(event)),
  }),
);
