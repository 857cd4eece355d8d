import { acquirerConfig } from './config/acquirer-config.js';
import type { Authorizer, AuthorizerSource } from '../core/ports/authorizer.js';
import { UnconfiguredAuthorizer } from '../adapters/processors/unconfigured-authorizer.js';
import { MAX_SECRET_TTL_MS } from '../adapters/secrets/secret-ttl.js';
import { clock } from './clock.js';
import { merchantAuthorizers, type ProcessorFactory } from './processors/registry.js';
import { sandboxAuthorizer } from './sandbox.js';

/**
 * The acquirer of each merchant, shared by the payment and lifecycle functions (SPEC 4.7, 4.16):
 * - sandbox merchants: the sandbox acquirer (SPEC §5), never a real one — where this stage
 *   serves the sandbox (SANDBOX_TABLE); where it does not, one that refuses every call (502,
 *   retryable, docs/sandbox.md);
 * - production merchants: their own processor (`processor` at onboarding), its adapter built by
 *   the factory the function gives (`authorizersWith`), which imports it with import() only for a
 *   merchant that uses it — the cold start of every other function and merchant is unchanged — and
 *   reads its credentials by ARN (cached five minutes);
 * - production merchants onboarded before `processor` existed: PRODUCTION_ACQUIRER's slot — one
 *   that refuses every call (502, retryable), never the sandbox, unless PRODUCTION_ACQUIRER=sandbox
 *   says so, which only a non-production stage with the sandbox may
 *   (lib/composition/config/acquirer-config.ts); the same for a production merchant whose
 *   processor is `sandbox`.
 *
 * The factories are the caller's because where an adapter is imported from decides how the
 * function is split into chunks: the lifecycle functions import each processor's adapter on its
 * own (./acquirers.ts), the payment functions every production adapter at once
 * (./payment-adapters.ts; docs/benchmarks.md "Cold start").
 */
if (acquirerConfig.PRODUCTION_ACQUIRER === 'sandbox' && !sandboxAuthorizer) {
  throw new Error('Invalid configuration: check PRODUCTION_ACQUIRER, SANDBOX_TABLE (the sandbox acquirer exists only where the stage serves the sandbox)');
}
export const productionAuthorizer: Authorizer =
  acquirerConfig.PRODUCTION_ACQUIRER === 'sandbox' && sandboxAuthorizer
    ? sandboxAuthorizer
    : new UnconfiguredAuthorizer('no processor is configured for this merchant');

/** Each merchant's authorizer, its processor's adapter built by `factories` (one per processor name). */
export function authorizersWith(factories: Readonly<Record<string, ProcessorFactory>>): AuthorizerSource {
  return merchantAuthorizers({
    sandbox: sandboxAuthorizer ?? new UnconfiguredAuthorizer('this stage serves no sandbox (no SANDBOX_TABLE)'),
    withoutProcessor: productionAuthorizer,
    sandboxForProduction: productionAuthorizer,
    factories,
    ttlMs: MAX_SECRET_TTL_MS,
    now: clock,
  });
}
export { sandboxAuthorizer };
