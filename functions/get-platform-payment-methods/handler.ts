import { authenticator, configRepository } from '../../lib/composition/core.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { noQuery } from '../../lib/http/params.js';
import { readPaymentMethods } from '../../lib/core/merchants/payment-methods.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.5 GET — the stored platform configuration. */
export const handler = apiHandler(routes.getPlatformPaymentMethods, { authenticator, query: noQuery }, async () => ({
  body: await readPaymentMethods(configRepository, { level: 'platform' }),
}));
