import { authenticator, baseUrlOf } from '../../lib/composition/core.js';
import { paymentDeps } from '../../lib/composition/payments.js';
import { toPaymentResource } from '../../lib/http/resources/payment-resource.js';
import { idempotentApiHandler } from '../../lib/composition/idempotent-api-handler.js';
import { noQuery, paymentParams } from '../../lib/http/params.js';
import { browserHeaders } from '../../lib/http/payment-request.js';
import { completeThreeDs } from '../../lib/core/payments/complete-three-ds.js';
import { completeThreeDsBody } from './schema.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.10 — continue a payment waiting for 3DS: after the 3DS Method, or with the challenge result. */
export const handler = idempotentApiHandler(
  routes.complete3ds,
  {
    authenticator,
    params: paymentParams,
    query: noQuery,
    body: completeThreeDsBody,
  },
  async ({ params, body: input, principal, readAhead, event, logger }) => {
    const payment = await completeThreeDs(paymentDeps, principal, params, input, {
      baseUrl: baseUrlOf(event),
      payerIp: event.requestContext?.http?.sourceIp,
      browserHeaders: browserHeaders(event),
      logger,
      readAhead,
    });
    return { body: toPaymentResource(payment) };
  },
);
