import { authenticator } from '../../lib/composition/core.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { merchantParams, noQuery } from '../../lib/http/params.js';
import { onboardMerchant } from '../../lib/core/merchants/merchant-config.js';
import { onboardingBody } from './schema.js';
import { assertProcessorAllowed, merchantConfigDeps } from '../../lib/composition/merchants.js';

/** SPEC 4.7 — merchant onboarding; platform token only. */
export const handler = apiHandler(
  {
    route: 'PUT /config/merchants/{merchantRef}/configs/vctp',
    access: { kind: 'platform' },
    authenticator,
    params: merchantParams,
    query: noQuery,
    body: onboardingBody,
  },
  async ({ params, body }) => {
    assertProcessorAllowed(body);
    return { body: await onboardMerchant(merchantConfigDeps, params.merchantRef, body) };
  },
);
