import { authenticator } from '../../lib/composition/core.js';
import { idempotentApiHandler } from '../../lib/composition/idempotent-api-handler.js';
import { runOperation } from '../../lib/http/lifecycle-request.js';
import { noQuery, paymentParams } from '../../lib/http/params.js';
import { lifecycleDeps } from '../../lib/composition/lifecycle.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.12 — void an authorization while nothing is captured. No body. */
export const handler = idempotentApiHandler(
  routes.createReversal,
  {
    authenticator,
    params: paymentParams,
    query: noQuery,
  },
  (request) => runOperation(lifecycleDeps, 'REVERSAL', { ...request, body: undefined }, 200),
);
