import { MastercardClickToPaySdk } from './mastercard-sdk.js';
import type { ClickToPaySdk } from './types.js';
import { VisaClickToPaySdk } from './visa-sdk.js';

/**
 * The real card networks' SDKs behind the page's one SDK interface, for production merchants
 * (a chunk of its own, loaded only for them): Visa Unified Click to Pay (./visa-sdk.ts) and
 * Mastercard Checkout Services (./mastercard-sdk.ts). Each adapter maps the calls its
 * network's public reference documents and cites it; nothing beyond. The browser suite runs
 * them against fakes of both SDKs (test/e2e/fakes/, test/e2e/network-sdks.e2e.test.ts).
 */
export interface NetworkSdkUrls {
  visa?: string;
  mastercard?: string;
  /** Where the key Visa issued for new cards is served (a JWKS): `visa-card-key` in CLICK_TO_PAY_SDK_URLS. */
  visaCardKey?: string;
}

/** Visa's Unified Click to Pay covers the other networks' cards too, so it is preferred. */
export function createNetworkSdk(urls: NetworkSdkUrls | undefined, cardBrands: string[]): ClickToPaySdk | undefined {
  if (urls?.visa && cardBrands.includes('visa')) return new VisaClickToPaySdk(urls.visa, urls.visaCardKey);
  if (urls?.mastercard && cardBrands.includes('mastercard')) return new MastercardClickToPaySdk(urls.mastercard);
  if (urls?.visa) return new VisaClickToPaySdk(urls.visa, urls.visaCardKey);
  return undefined;
}
