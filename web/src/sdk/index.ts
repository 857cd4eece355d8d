import type { NetworkSdkUrls } from './network-sdk.js';
import { SandboxClickToPaySdk } from './sandbox-sdk.js';
import { SdkError, type ClickToPaySdk } from './types.js';

export * from './types.js';

/**
 * Chooses the implementation from the merchant configuration's environment: `sandbox` → the
 * sandbox network served by this service; anything else → the real network SDKs from
 * bootstrap.sdkUrls (a separate chunk, loaded only then). When no usable SDK is configured
 * this rejects with INIT_FAILED, like a network SDK that cannot start.
 */
export async function createClickToPaySdk(environment: string, cardBrands: string[], sdkUrls?: NetworkSdkUrls): Promise<ClickToPaySdk> {
  if (environment === 'sandbox') return new SandboxClickToPaySdk();
  try {
    const { createNetworkSdk } = await import('./network-sdk.js');
    const sdk = createNetworkSdk(sdkUrls, cardBrands);
    if (sdk) return sdk;
  } catch {
    // the chunk did not load
  }
  throw new SdkError('INIT_FAILED');
}
