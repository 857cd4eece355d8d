import { authenticator } from '../../lib/composition/core.js';
import { idempotentApiHandler } from '../../lib/composition/idempotent-api-handler.js';
import { runOperation } from '../../lib/http/lifecycle-request.js';
import { operationBody } from '../../lib/http/operation-body.js';
import { noQuery, paymentParams } from '../../lib/http/params.js';
import { lifecycleDeps } from '../../lib/composition/lifecycle.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.13 — refund (partial, several, or all that is captured and not yet refunded). */
export const handler = idempotentApiHandler(
  routes.createRefund,
  {
    authenticator,
    params: paymentParams,
    query: noQuery,
    body: operationBody,
    bodyOptional: true,
  },
  (request) => runOperation(lifecycleDeps, 'REFUND', request, 201),
);
