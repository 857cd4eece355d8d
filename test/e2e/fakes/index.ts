import { startFakeNetwork, type FakeNetwork } from './fake-network-server.js';

export type { FakeNetwork };

/**
 * Both fake networks, each on its own loopback origin, and the settings that point the local
 * stack at them: the page loads their SDKs (CLICK_TO_PAY_SDK_URLS, plus the Visa card key the
 * adapter encrypts new cards with), and 4.3 trusts their signing keys (NETWORK_JWKS_URLS,
 * file: URLs; the stack adds its own `sandbox` network).
 */
export interface FakeNetworks {
  visa: FakeNetwork;
  mastercard: FakeNetwork;
  env: { CLICK_TO_PAY_SDK_URLS: string; NETWORK_JWKS_URLS: string };
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
    },
    close: async () => {
      await Promise.allSettled([visa.close(), mastercard.close()]);
    },
  };
}
