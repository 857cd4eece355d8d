import { authenticator, baseUrlOf } from '../../lib/composition/core.js';
import { paymentLinkDeps } from '../../lib/composition/payment-links.js';
import { idempotentApiHandler } from '../../lib/composition/idempotent-api-handler.js';
import { noQuery, outletParams } from '../../lib/http/params.js';
import { createPaymentLink } from '../../lib/core/links/payment-links.js';
import { createPaymentLinkBody } from './schema.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.14 — create a payment link (only while Click to Pay is effectively enabled). */
export const handler = idempotentApiHandler(
  routes.createPaymentLink,
  {
    authenticator,
    params: outletParams,
    query: noQuery,
    body: createPaymentLinkBody,
  },
  async ({ params, body, principal, event }) => ({
    status: 201,
    body: await createPaymentLink(paymentLinkDeps, principal, params.outletId, body, baseUrlOf(event)),
  }),
);
