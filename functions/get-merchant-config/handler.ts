import { authenticator } from '../../lib/composition/core.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { merchantParams, noQuery } from '../../lib/http/params.js';
import { readMerchantConfig } from '../../lib/core/merchants/merchant-config.js';
import { merchantConfigDeps } from '../../lib/composition/merchants.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.1 — any valid token whose scope covers the merchant. */
export const handler = apiHandler(
  routes.getMerchantConfig,
  {
    authenticator,
    params: merchantParams,
    query: noQuery,
  },
  async ({ params, principal }) => ({
    body: await readMerchantConfig(merchantConfigDeps, principal, params.merchantRef),
  }),
);
