import { authenticator, paymentMethodsDeps } from '../../lib/composition/core.js';
import { idempotentApiHandler } from '../../lib/composition/idempotent-api-handler.js';
import { noQuery, tenantParams } from '../../lib/http/params.js';
import { paymentMethodsBody } from '../../lib/http/payment-methods-schema.js';
import { upsertPaymentMethods } from '../../lib/core/merchants/payment-methods.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.6 PUT|POST — tenant enablement; 409 when the platform has the method off. */
export const handler = idempotentApiHandler(
  routes.putTenantPaymentMethods,
  {
    authenticator,
    params: tenantParams,
    query: noQuery,
    body: paymentMethodsBody,
  },
  async ({ params, body }) => ({
    body: await upsertPaymentMethods(paymentMethodsDeps, { level: 'tenant', tenantRef: params.tenantRef }, body.paymentMethods),
  }),
);
