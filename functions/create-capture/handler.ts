import { authenticator } from '../../lib/composition/core.js';
import { idempotentApiHandler } from '../../lib/composition/idempotent-api-handler.js';
import { runOperation } from '../../lib/http/lifecycle-request.js';
import { operationBody } from '../../lib/http/operation-body.js';
import { noQuery, paymentParams } from '../../lib/http/params.js';
import { lifecycleDeps } from '../../lib/composition/lifecycle.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.11 — capture (partial, several partials, or all that is left). */
export const handler = idempotentApiHandler(
  routes.createCapture,
  {
    authenticator,
    params: paymentParams,
    query: noQuery,
    body: operationBody,
    bodyOptional: true,
  },
  (request) => runOperation(lifecycleDeps, 'CAPTURE', request, 201),
);
