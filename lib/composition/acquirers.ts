import { documentClient } from './aws.js';
import { acquirerConfig } from './config/acquirer-config.js';
import { serviceConfig } from './config/service-config.js';
import type { Authorizer, AuthorizerSource } from '../core/ports/authorizer.js';
import { SandboxAuthorizer } from '../adapters/sandbox/sandbox-authorizer.js';
import { UnconfiguredAuthorizer } from '../adapters/processors/unconfigured-authorizer.js';
import { merchantAuthorizers } from './processors/registry.js';
import { MAX_SECRET_TTL_MS } from '../adapters/secrets/secret-ttl.js';

/**
 * The acquirer of each merchant, shared by the payment and lifecycle functions (SPEC 4.7, 4.16):
 * - sandbox merchants: the sandbox acquirer (SPEC §5), never a real one;
 * - production merchants: their own processor (`processor` at onboarding), its adapter loaded
 *   with import() only for a merchant that uses it — the cold start of every other function and
 *   merchant is unchanged — and its credentials read by ARN (cached five minutes);
 * - production merchants onboarded before `processor` existed: PRODUCTION_ACQUIRER's slot — one
 *   that refuses every call (502, retryable), never the sandbox, unless PRODUCTION_ACQUIRER=sandbox
 *   says so, which only a non-production stage may (lib/composition/config/acquirer-config.ts);
 *   the same for a production merchant whose processor is `sandbox`.
 */
export const authorizer = new SandboxAuthorizer(documentClient, serviceConfig.ORDERS_TABLE);
export const productionAuthorizer: Authorizer = acquirerConfig.PRODUCTION_ACQUIRER === 'sandbox' ? authorizer : new UnconfiguredAuthorizer();
export const authorizers: AuthorizerSource = merchantAuthorizers({
  sandbox: authorizer,
  withoutProcessor: productionAuthorizer,
  sandboxForProduction: productionAuthorizer,
  factories: {
    adyen: async (merchant) => (await import('./processors/adyen.js')).adyenAuthorizer(merchant),
    checkout_com: async (merchant) => (await import('./processors/checkout-com.js')).checkoutComAuthorizer(merchant),
  },
  ttlMs: MAX_SECRET_TTL_MS,
  now: Date.now,
});
