import type { MerchantConfig } from '../domain/merchant.js';
import { allowedRedirectUrl } from '../domain/redirect-url.js';

/**
 * A payment link's `returnUrl` is checked exactly like an order's (SPEC 4.8, one rule:
 * lib/domain/redirect-url.ts) against the merchant's `redirectOrigins`; 422
 * INVALID_REDIRECT_URL otherwise. Returns the URL as it will be stored and navigated to.
 */
export function linkReturnUrl(merchant: MerchantConfig, returnUrl: string): string {
  return allowedRedirectUrl('returnUrl', returnUrl, merchant.redirectOrigins ?? []);
}
