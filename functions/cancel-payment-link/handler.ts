import { authenticator, baseUrlOf } from '../../lib/composition/core.js';
import { paymentLinkDeps } from '../../lib/composition/payment-links.js';
import { idempotentApiHandler } from '../../lib/composition/idempotent-api-handler.js';
import { headerValue } from '../../lib/http/json-body.js';
import { noQuery } from '../../lib/http/params.js';
import { paymentLinkParams } from '../../lib/http/payment-link-params.js';
import { cancelPaymentLink } from '../../lib/core/links/payment-links.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.14 — cancel a link; only from ACTIVE (409 PAYMENT_STATE_CONFLICT otherwise). */
export const handler = idempotentApiHandler(
  routes.cancelPaymentLink,
  {
    authenticator,
    params: paymentLinkParams,
    query: noQuery,
  },
  async ({ params, principal, event }) => ({
    body: await cancelPaymentLink(paymentLinkDeps, principal, params.outletId, params.linkRef, baseUrlOf(event), headerValue(event, 'idempotency-key')),
  }),
);
