import type { MerchantConfigDeps, OnboardingInput } from '../core/merchants/merchant-config.js';
import { InvalidRequestError } from '../core/errors.js';
import { acquirerConfig } from './config/acquirer-config.js';
import { clock, configRepository } from './core.js';
import { payloadKeyVault } from './keys.js';

/** Merchant configuration (4.1, 4.7): it names the current payload key id. */
export const merchantConfigDeps: MerchantConfigDeps = { config: configRepository, keys: payloadKeyVault, now: clock };

/**
 * A production merchant may name the sandbox acquirer only where this deployment lets production
 * merchants reach it (PRODUCTION_ACQUIRER=sandbox, which only a non-production stage may set:
 * infra/serverless/stage.cjs): elsewhere that would approve real shoppers by sandbox rules.
 */
export function assertProcessorAllowed(body: Pick<OnboardingInput, 'environment' | 'processor'>): void {
  if (body.environment !== 'production' || body.processor?.name !== 'sandbox' || acquirerConfig.PRODUCTION_ACQUIRER === 'sandbox') return;
  throw new InvalidRequestError('The request is invalid.', {
    errors: [{ path: 'processor.name', message: 'A production merchant needs a real processor (adyen or checkout_com) on this deployment' }],
  });
}
