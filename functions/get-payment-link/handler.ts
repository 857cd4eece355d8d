import { authenticator, baseUrlOf } from '../../lib/composition/core.js';
import { paymentLinkDeps } from '../../lib/composition/payment-links.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { noQuery } from '../../lib/http/params.js';
import { paymentLinkParams } from '../../lib/http/payment-link-params.js';
import { readPaymentLink } from '../../lib/core/links/payment-links.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.14 GET — the link and its state now (expiry applied lazily, PAID from its order). */
export const handler = apiHandler(
  routes.getPaymentLink,
  {
    authenticator,
    params: paymentLinkParams,
    query: noQuery,
  },
  async ({ params, principal, event }) => ({
    body: await readPaymentLink(paymentLinkDeps, principal, params.outletId, params.linkRef, baseUrlOf(event)),
  }),
);
