import type { ThreeDsRequestorConfig } from './three-ds-requestor.js';

export const CARD_BRANDS = ['visa', 'mastercard', 'amex', 'discover'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];
export const THREE_DS_POLICIES = ['never', 'risk-based', 'always'] as const;
export type ThreeDsPolicy = (typeof THREE_DS_POLICIES)[number];
export type MerchantEnvironment = 'sandbox' | 'production';

/**
 * A merchant's processor (SPEC 4.7 `processor`): which one acts for it (`sandbox`, `adyen`,
 * `checkout_com`: the edge validates the names and shapes, the composition maps a name to its
 * adapter — the core acts through the authorizer port only), the account at it, and where its
 * secrets are: ARNs of a Secrets Manager secret or an SSM SecureString parameter, never a secret.
 */
export interface MerchantProcessor {
  name: string;
  /** Adyen merchant account; Checkout.com processing channel (pc_…). Absent for `sandbox`. */
  account?: string;
  credentialsArn?: string;
  /** Where the processor's notification signing key is (Adyen's HMAC key). */
  notificationHmacKeyArn?: string;
}

/** A merchant's Click to Pay onboarding (SPEC 4.7). Not secret: dpaClientId is public, the processor's secrets are ARNs. */
export interface MerchantConfig {
  merchantRef: string;
  tenantRef: string;
  dpaId: string;
  dpaClientId: string;
  dpaName: string;
  cardBrands: CardBrand[];
  locale: string;
  environment: MerchantEnvironment;
  threeDsPolicy: ThreeDsPolicy;
  outlets: string[];
  /** 4.7: the origins return and cancel URLs may point to, normalised (lib/core/domain/redirect-url.ts). Absent on merchants onboarded before. */
  redirectOrigins?: string[];
  /**
   * 4.7: who authorizes, captures, reverses and refunds for it. Required at onboarding for a
   * production merchant; absent on merchants onboarded before it existed (sandbox merchants: the
   * sandbox acquirer; production ones: none — every authorization 502, retryable).
   */
  processor?: MerchantProcessor;
  /**
   * 4.7 `threeDsRequestor`: what a production step-up's AReq says of the merchant (requestor id
   * and name, acquirer BIN and merchant id per brand, MCC…); absent, a production payment that
   * must step up cannot be authenticated (FAILED THREE_DS_FAILED, never authorized unauthenticated).
   */
  threeDsRequestor?: ThreeDsRequestorConfig;
  updatedAt: string;
}

export interface Outlet {
  outletId: string;
  merchantRef: string;
  tenantRef: string;
}
