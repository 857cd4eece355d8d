import { authenticator, orderDeps, sessionMintDeps, baseUrlOf } from '../../lib/composition/core.js';
import { idempotentApiHandler } from '../../lib/composition/idempotent-api-handler.js';
import { noQuery, outletParams } from '../../lib/http/params.js';
import { createOrder } from '../../lib/core/orders/orders.js';
import { createOrderBody } from './schema.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.8 — create an order and its first payment (and, with a returnUrl, its hosted payment page). */
export const handler = idempotentApiHandler(
  routes.createOrder,
  {
    authenticator,
    params: outletParams,
    query: noQuery,
    body: createOrderBody,
  },
  async ({ params, body, principal, event }) => ({
    status: 201,
    body: await createOrder({ ...orderDeps, checkout: { ...sessionMintDeps, baseUrl: baseUrlOf(event) } }, principal, params.outletId, body),
  }),
);
