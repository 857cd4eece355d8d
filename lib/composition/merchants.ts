import type { MerchantConfigDeps, OnboardingInput } from '../core/merchants/merchant-config.js';
import { InvalidRequestError } from '../core/errors.js';
import { acquirerConfig } from './config/acquirer-config.js';
import { processorSecretsConfig } from './config/processor-secrets-config.js';
import { clock } from './clock.js';
import { configRepository } from './core.js';
import { payloadKeyVault } from './keys.js';

/** Merchant configuration (4.1, 4.7): it names the current payload key id. */
export const merchantConfigDeps: MerchantConfigDeps = { config: configRepository, keys: payloadKeyVault, now: clock };

/**
 * A production merchant may name the sandbox acquirer only where this deployment lets production
 * merchants reach it (PRODUCTION_ACQUIRER=sandbox, which only a non-production stage may set:
 * infra/serverless/stage.cjs): elsewhere that would approve real shoppers by sandbox rules.
 */
export function assertProcessorAllowed(body: Pick<OnboardingInput, 'environment' | 'processor'>): void {
  const processor = body.processor;
  if (body.environment === 'production' && processor?.name === 'sandbox' && acquirerConfig.PRODUCTION_ACQUIRER !== 'sandbox') {
    throw new InvalidRequestError('The request is invalid.', {
      errors: [{ path: 'processor.name', message: 'A production merchant needs a real processor (adyen or checkout_com) on this deployment' }],
    });
  }
  const prefix = processorSecretsConfig.PROCESSOR_SECRETS_PREFIX;
  if (!prefix || !processor) return;
  const outside = (['credentialsArn', 'notificationHmacKeyArn'] as const).filter((field) => {
    const arn = processor[field];
    return arn !== undefined && !secretName(arn).startsWith(prefix);
  });
  if (outside.length > 0) {
    throw new InvalidRequestError('The request is invalid.', {
      errors: outside.map((field) => ({
        path: `processor.${field}`,
        message: `Expected a secret or parameter named ${prefix}… (this deployment may read only those)`,
      })),
    });
  }
}

/** A Secrets Manager secret's name or an SSM parameter's path (without its leading slash), from its ARN. */
function secretName(arn: string): string {
  return arn.replace(/^arn:[^:]+:secretsmanager:[^:]*:[^:]*:secret:/, '').replace(/^arn:[^:]+:ssm:[^:]*:[^:]*:parameter\//, '');
}
