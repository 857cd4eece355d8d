import { authenticator, paymentMethodsDeps } from '../../lib/composition/core.js';
import { idempotentApiHandler } from '../../lib/composition/idempotent-api-handler.js';
import { noQuery } from '../../lib/http/params.js';
import { paymentMethodsBody } from '../../lib/http/payment-methods-schema.js';
import { upsertPaymentMethods } from '../../lib/core/merchants/payment-methods.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.5 PUT|POST — idempotent upsert of platform-level enablement. */
export const handler = idempotentApiHandler(
  routes.putPlatformPaymentMethods,
  {
    authenticator,
    query: noQuery,
    body: paymentMethodsBody,
  },
  async ({ body }) => ({ body: await upsertPaymentMethods(paymentMethodsDeps, { level: 'platform' }, body.paymentMethods) }),
);
