import { authenticator } from '../../lib/composition/core.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { merchantParams, noQuery } from '../../lib/http/params.js';
import { onboardMerchant } from '../../lib/core/merchants/merchant-config.js';
import { onboardingBody } from './schema.js';
import { assertProcessorAllowed, merchantConfigDeps } from '../../lib/composition/merchants.js';
import { routes } from '../../lib/http/routes.js';
import { InvalidRequestError } from '../../lib/core/errors.js';

/** SPEC 4.7 — merchant onboarding; platform token only. */
export const handler = apiHandler(
  routes.putMerchantConfig,
  {
    authenticator,
    params: merchantParams,
    query: noQuery,
    body: onboardingBody,
  },
  async ({ params, body: { merchantRef, ...input } }) => {
    if (merchantRef !== undefined && merchantRef !== params.merchantRef) {
      throw new InvalidRequestError('The body names another merchant than the path.', {
        errors: [{ path: 'merchantRef', message: `Expected "${params.merchantRef}" (the path's merchant) or no merchantRef` }],
      });
    }
    assertProcessorAllowed(input);
    return { body: await onboardMerchant(merchantConfigDeps, params.merchantRef, input) };
  },
);
