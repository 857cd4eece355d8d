import type { JWK } from 'jose';
import { buildSandboxCheckoutResponse } from '../checkout-response.js';
import type { SandboxCard } from '../sandbox-cards.js';
import { enrolledSandboxCard } from './cards.js';
import type { SandboxConsumer } from './consumers.js';
import { SrcError } from './errors.js';
import type { EnrolledCard } from './session-store.js';
import type { NetworkSigningKeys } from './signing-keys.js';

export interface CheckoutCard {
  /** A card enrolled in this session (its token is derived now), or … */
  enrolled?: EnrolledCard | undefined;
  /** … a card of the authenticated consumer's catalogue. */
  catalogue?: SandboxCard | undefined;
  consumer?: SandboxConsumer | undefined;
  /** The service's current payload key (4.2): the checkout payload is encrypted to it. */
  recipientKey: JWK;
  signingKeys: NetworkSigningKeys;
}

/**
 * Signing key preference per scheme: Visa's sandbox checkout is RS256-signed, Mastercard's
 * ES256 — so both verification paths of 4.3 get exercised by the hosted page.
 */
const ALGORITHMS = { visa: ['RS256', 'PS256', 'ES256'], mastercard: ['ES256', 'RS256', 'PS256'] } as const;

/**
 * The SDK result of a completed checkout, exactly as the scheme's SDK resolves `checkout()`
 * (Visa: `{ actionCode: SUCCESS, checkoutResponse }`, Mastercard: `{ checkoutActionCode:
 * COMPLETE, checkoutResponse, headers, network }`): the page passes it to 4.3 unmodified.
 */
export async function checkoutResult(input: CheckoutCard): Promise<Record<string, unknown>> {
  const card = input.enrolled ? enrolledSandboxCard(input.enrolled) : input.catalogue!;
  if (card.checkoutFails) throw new SrcError(502, 'CHECKOUT_FAILED', 'The network could not complete the checkout.');
  const scheme = card.brand === 'VISA' ? 'visa' : 'mastercard';
  return buildSandboxCheckoutResponse({
    card,
    scheme,
    srcDigitalCardId: card.id,
    signingKey: await input.signingKeys.pick(ALGORITHMS[scheme]),
    recipientKey: input.recipientKey,
    ...(input.consumer?.email ? { consumerEmail: input.consumer.email } : {}),
  });
}
