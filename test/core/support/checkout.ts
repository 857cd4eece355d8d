import type { JWK } from 'jose';
import { buildSandboxCheckoutResponse } from '../../../lib/adapters/sandbox/checkout-response.js';
import { sandboxCard } from '../../../lib/adapters/sandbox/sandbox-cards.js';
import { checkoutRequestSchema } from '../../../lib/core/checkout/sdk-result.js';
import type { CoreWorld } from './world.js';

/**
 * A 4.3 request body with a checkout response exactly as a network makes it: a JWS signed by the
 * network's key (the world's trusted networks), its payload a JWE to the service's payload key,
 * issued now by the world's clock; validated as the HTTP layer validates it.
 */
export async function checkout(
  world: CoreWorld,
  options: { card?: string; network?: 'visa' | 'mastercard' | 'sandbox'; recipientKey?: JWK; iat?: number; jti?: string } = {},
) {
  const network = options.network ?? 'visa';
  const result = await buildSandboxCheckoutResponse({
    card: sandboxCard(options.card ?? 'visa-classic'),
    scheme: network === 'mastercard' ? 'mastercard' : 'visa',
    signingKey: world.networks[network].privateJwk,
    recipientKey: options.recipientKey ?? (await world.keys.publicKeys())[0]!.jwk,
    iat: options.iat ?? Math.floor(world.clock.now() / 1000),
    ...(options.jti ? { jti: options.jti } : {}),
  });
  return checkoutRequestSchema.parse({ checkoutResponse: result });
}
