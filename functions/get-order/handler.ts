import { authenticator, orderDeps } from '../../lib/composition/core.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { noQuery, orderParams } from '../../lib/http/params.js';
import { readOrder } from '../../lib/core/orders/orders.js';

/** SPEC 4.8 GET — the order as it is now. */
export const handler = apiHandler(
  {
    route: 'GET /transactions/outlets/{outletId}/orders/{orderRef}',
    access: { kind: 'permission', permission: 'VIEW_ORDER' },
    sessionTokens: 'allowed', // the hosted page (SPEC §1)
    authenticator,
    params: orderParams,
    query: noQuery,
  },
  async ({ params, principal }) => ({
    body: await readOrder(orderDeps, principal, params.outletId, params.orderRef),
  }),
);
