import { PAYLOAD_KEY_ALIAS } from '../../../infra/local/stack.js';
import { startFakeNetwork, VISA_ASSIGNED_KID, type FakeNetwork } from './fake-network-server.js';

export type { FakeNetwork };

/**
 * Both fake networks, each on its own loopback origin, and the settings that point the local
 * stack at them: the page loads their SDKs (CLICK_TO_PAY_SDK_URLS, plus the Visa card key the
 * adapter encrypts new cards with), 4.3 trusts their signing keys (NETWORK_JWKS_URLS, file:
 * URLs; the stack adds its own `sandbox` network) and knows Visa's id for its payload key.
 */
export interface FakeNetworks {
  visa: FakeNetwork;
  mastercard: FakeNetwork;
  env: { CLICK_TO_PAY_SDK_URLS: string; NETWORK_JWKS_URLS: string; PAYLOAD_KEY_NETWORK_KIDS: string };
  close(): Promise<void>;
}

export async function startFakeNetworks(keysDir: string): Promise<FakeNetworks> {
  const visa = await startFakeNetwork('visa', keysDir);
  const mastercard = await startFakeNetwork('mastercard', keysDir).catch(async (error: unknown) => {
    await visa.close();
    throw error;
  });
  return {
    visa,
    mastercard,
    env: {
      CLICK_TO_PAY_SDK_URLS: `visa=${visa.sdkUrl},visa-card-key=${visa.cardKeyUrl},mastercard=${mastercard.sdkUrl}`,
      NETWORK_JWKS_URLS: `visa=${visa.signingJwksUrl},mastercard=${mastercard.signingJwksUrl}`,
      // Visa's id for the local stack's payload key is registered; Mastercard's is left to the key trial.
      PAYLOAD_KEY_NETWORK_KIDS: JSON.stringify({ [PAYLOAD_KEY_ALIAS]: [VISA_ASSIGNED_KID] }),
    },
    close: async () => {
      await Promise.allSettled([visa.close(), mastercard.close()]);
    },
  };
}
