import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JWK } from 'jose';
import { payloadKeyVault } from '../../lib/composition/keys.js';
import { buildSandboxCheckoutResponse, type SandboxCheckoutInput } from '../../lib/adapters/sandbox/checkout-response.js';
import { sandboxCard } from '../../lib/adapters/sandbox/sandbox-cards.js';

/** The sandbox network's private signing keys, as created by the local stack. */
export function sandboxSigningKey(alg: 'RS256' | 'ES256' = 'RS256'): JWK {
  const { keys } = JSON.parse(readFileSync(join(process.env.TEST_DATA_DIR!, 'sandbox-network', 'private-jwks.json'), 'utf8')) as { keys: JWK[] };
  return keys.find((key) => key.alg === alg)!;
}

export async function currentRecipientKey(): Promise<JWK> {
  const [current] = await payloadKeyVault.publicKeys();
  return current!.jwk;
}

/** A checkout response exactly as the sandbox network would produce it. */
export async function checkoutResponse(options: Partial<Omit<SandboxCheckoutInput, 'card'>> & { card?: string } = {}) {
  return buildSandboxCheckoutResponse({
    scheme: 'visa',
    signingKey: sandboxSigningKey(),
    recipientKey: await currentRecipientKey(),
    ...options,
    card: sandboxCard(options.card ?? 'visa-classic'),
  });
}
