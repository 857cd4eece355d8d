import { authenticator, orderDeps } from '../../lib/composition/core.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { noQuery, orderParams } from '../../lib/http/params.js';
import { readOrder } from '../../lib/core/orders/orders.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.8 GET — the order as it is now. */
export const handler = apiHandler(
  routes.getOrder,
  {
    authenticator,
    params: orderParams,
    query: noQuery,
  },
  async ({ params, principal }) => ({
    body: await readOrder(orderDeps, principal, params.outletId, params.orderRef),
  }),
);
