import { authenticator, configRepository } from '../../lib/composition/core.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { noQuery, tenantParams } from '../../lib/http/params.js';
import { readPaymentMethods } from '../../lib/core/merchants/payment-methods.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.6 GET — the stored tenant configuration. */
export const handler = apiHandler(
  routes.getTenantPaymentMethods,
  {
    authenticator,
    params: tenantParams,
    query: noQuery,
  },
  async ({ params }) => ({ body: await readPaymentMethods(configRepository, { level: 'tenant', tenantRef: params.tenantRef }) }),
);
