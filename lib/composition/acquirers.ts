import { acquirerConfig } from './config/acquirer-config.js';
import type { MerchantEnvironment } from '../core/domain/merchant.js';
import type { Authorizer } from '../core/ports/authorizer.js';
import { UnconfiguredAuthorizer } from '../adapters/processors/unconfigured-authorizer.js';
import { sandboxAuthorizer } from './sandbox.js';

/**
 * One acquirer per merchant environment, shared by the payment and lifecycle functions.
 * Sandbox merchants reach the sandbox acquirer (SPEC §5) where this stage serves the sandbox
 * (SANDBOX_TABLE); where it does not, an acquirer that refuses every call (502, retryable,
 * docs/sandbox.md). Production merchants reach the gateway's acquirer, plugged in here through
 * the same port — until then one that refuses every call, never the sandbox — unless
 * PRODUCTION_ACQUIRER=sandbox says so, which only a non-production stage with the sandbox may
 * (lib/composition/config/acquirer-config.ts).
 */
if (acquirerConfig.PRODUCTION_ACQUIRER === 'sandbox' && !sandboxAuthorizer) {
  throw new Error('Invalid configuration: check PRODUCTION_ACQUIRER, SANDBOX_TABLE (the sandbox acquirer exists only where the stage serves the sandbox)');
}
export const productionAuthorizer: Authorizer =
  acquirerConfig.PRODUCTION_ACQUIRER === 'sandbox' && sandboxAuthorizer
    ? sandboxAuthorizer
    : new UnconfiguredAuthorizer('no production acquirer is configured for this deployment');
export const authorizers: Record<MerchantEnvironment, Authorizer> = {
  sandbox: sandboxAuthorizer ?? new UnconfiguredAuthorizer('this stage serves no sandbox (no SANDBOX_TABLE)'),
  production: productionAuthorizer,
};
export { sandboxAuthorizer };
