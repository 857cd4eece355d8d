import type { MerchantConfig, MerchantProcessor } from '../../core/domain/merchant.js';
import { DependencyUnavailableError } from '../../core/errors.js';
import { AcquirerNotReachedError, type Authorizer, type AuthorizerSource } from '../../core/ports/authorizer.js';

/** Builds the adapter of one merchant's processor (its credentials read by ARN). */
export type ProcessorFactory = (merchant: MerchantConfig & { processor: MerchantProcessor }) => Promise<Authorizer>;

export interface MerchantAuthorizersOptions {
  /** The sandbox acquirer (SPEC §5). */
  sandbox: Authorizer;
  /** Production merchants without a processor (onboarded before SPEC 4.7 had it): PRODUCTION_ACQUIRER's choice. */
  withoutProcessor: Authorizer;
  /** A production merchant whose processor is `sandbox`: the sandbox where PRODUCTION_ACQUIRER=sandbox, else none. */
  sandboxForProduction: Authorizer;
  /** One factory per processor name; each loads its adapter only when first called. */
  factories: Readonly<Record<string, ProcessorFactory>>;
  /** How long a built adapter (and the credentials in it) serves a warm function: rotation is picked up after it. */
  ttlMs: number;
  now: () => number;
}

/**
 * The authorizer of each merchant (SPEC 4.7, 4.16): sandbox merchants the sandbox acquirer,
 * never a real one; production merchants their own processor's adapter, built from their
 * configuration and kept for `ttlMs` in the warm function (keyed by merchant and configuration,
 * so re-onboarding takes effect at once). A processor that cannot be set up (its secret
 * unreadable or malformed) fails as not reached — nothing was sent, nothing is held — or as
 * DEPENDENCY_UNAVAILABLE when the secret store itself did not answer.
 */
export function merchantAuthorizers(options: MerchantAuthorizersOptions): AuthorizerSource {
  const built = new Map<string, { authorizer: Promise<Authorizer>; expiresAt: number }>();
  return {
    async for(merchant) {
      if (merchant?.environment === 'sandbox') return options.sandbox;
      const processor = merchant?.processor;
      if (!merchant || !processor) return options.withoutProcessor;
      if (processor.name === 'sandbox') return options.sandboxForProduction;
      const factory = options.factories[processor.name];
      if (!factory) throw new AcquirerNotReachedError(undefined, { cause: new Error(`no adapter for processor "${processor.name}"`) });
      const key = `${merchant.merchantRef}\n${JSON.stringify(processor)}`;
      const now = options.now();
      const hit = built.get(key);
      if (hit && hit.expiresAt > now) return hit.authorizer;
      const authorizer = factory({ ...merchant, processor }).catch((error: unknown) => {
        if (built.get(key)?.authorizer === authorizer) built.delete(key);
        if (error instanceof DependencyUnavailableError) throw error;
        throw new AcquirerNotReachedError(undefined, { cause: error });
      });
      if (built.size >= 1000) built.delete(built.keys().next().value!);
      built.set(key, { authorizer, expiresAt: now + options.ttlMs });
      return authorizer;
    },
  };
}
