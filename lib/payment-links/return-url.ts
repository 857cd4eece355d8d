import type { MerchantConfig } from '../domain/merchant.js';
import { InvalidRedirectUrlError } from '../errors.js';

/**
 * A payment link's `returnUrl` is checked exactly like an order's (SPEC 4.8): https (http only
 * on a loopback host), no credentials, and its origin among the merchant's `redirectOrigins`.
 * This stays the one place links call, so that it can defer to the orders' own check once that
 * exists (one rule for both).
 */
export function assertLinkReturnUrl(merchant: MerchantConfig, returnUrl: string): void {
  const allowed = (merchant as MerchantConfig & { redirectOrigins?: readonly string[] }).redirectOrigins ?? [];
  let url: URL;
  try {
    url = new URL(returnUrl);
  } catch {
    throw new InvalidRedirectUrlError('returnUrl is not allowed: its origin is not one of the merchant’s redirectOrigins.');
  }
  const loopback = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  const schemeOk = url.protocol === 'https:' || (url.protocol === 'http:' && loopback);
  if (!schemeOk || url.username || url.password || !allowed.some((origin) => sameOrigin(origin, url.origin))) {
    throw new InvalidRedirectUrlError('returnUrl is not allowed: its origin is not one of the merchant’s redirectOrigins.');
  }
}

function sameOrigin(allowed: string, origin: string): boolean {
  try {
    return new URL(allowed).origin === origin;
  } catch {
    return false;
  }
}
