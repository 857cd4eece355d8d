import type { AuthorizerSource } from '../core/ports/authorizer.js';
import { authorizersWith, productionAuthorizer, sandboxAuthorizer } from './acquirer-slots.js';

/**
 * The acquirers of the lifecycle functions (SPEC 4.16; ./acquirer-slots.ts says who gets which):
 * a production merchant's processor adapter is imported, on its own, the first time one of its
 * merchants needs it. The payment functions import theirs through ./payment-adapters.ts.
 */
export const authorizers: AuthorizerSource = authorizersWith({
  adyen: async (merchant) => (await import('./processors/adyen.js')).adyenAuthorizer(merchant),
  checkout_com: async (merchant) => (await import('./processors/checkout-com.js')).checkoutComAuthorizer(merchant),
});
export { productionAuthorizer, sandboxAuthorizer };
