import { authenticator, baseUrlOf } from '../../lib/composition/core.js';
import { paymentDeps } from '../../lib/composition/payments.js';
import { checkoutRequestSchema } from '../../lib/core/checkout/sdk-result.js';
import { toPaymentResource } from '../../lib/http/resources/payment-resource.js';
import { idempotentApiHandler } from '../../lib/composition/idempotent-api-handler.js';
import { paymentParams } from '../../lib/http/params.js';
import { browserHeaders, payerIp, payerIpQuery } from '../../lib/http/payment-request.js';
import { payWithClickToPay } from '../../lib/core/payments/pay-with-click-to-pay.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.3 — pay with the object the Click to Pay SDK's checkout() resolved with. */
export const handler = idempotentApiHandler(
  routes.payClickToPay,
  {
    authenticator,
    params: paymentParams,
    query: payerIpQuery,
    body: checkoutRequestSchema,
  },
  async ({ params, query, body, principal, readAhead, event, logger }) => {
    const payment = await payWithClickToPay(paymentDeps, principal, params, body, {
      baseUrl: baseUrlOf(event),
      payerIp: payerIp(query, event),
      browserHeaders: browserHeaders(event),
      logger,
      readAhead,
    });
    return { body: toPaymentResource(payment) };
  },
);
