import { authenticator } from '../../lib/composition/core.js';
import { paymentRetryDeps } from '../../lib/composition/payment-links.js';
import { idempotentApiHandler } from '../../lib/composition/idempotent-api-handler.js';
import { noQuery, orderParams } from '../../lib/http/params.js';
import { retryPayment } from '../../lib/core/orders/payment-retry.js';
import { routes } from '../../lib/http/routes.js';

/**
 * A new payment on an order after a retryable decline (docs/integrating/hosted-page.md, "Retry after a decline"): the
 * hosted page (with its session token) or the merchant (CREATE_ORDER). No body.
 */
export const handler = idempotentApiHandler(
  routes.createPayment,
  {
    authenticator,
    params: orderParams,
    query: noQuery,
  },
  async ({ params, principal }) => ({
    status: 201,
    body: await retryPayment(paymentRetryDeps, principal, params.outletId, params.orderRef),
  }),
);
