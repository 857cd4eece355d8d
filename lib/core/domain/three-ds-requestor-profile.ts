import type { CardBrand, RequestorProfile } from '../ports/three-ds-server.js';
import type { ThreeDsRequestorConfig } from './three-ds-requestor.js';

/**
 * The AReq's requestor fields from a merchant's stored `threeDsRequestor` (three-ds-requestor.ts).
 * A module of its own: the payment functions need this, not the onboarding schema, whose zod
 * construction would otherwise be part of their cold start (docs/benchmarks.md "Cold start").
 */
const KEY: Readonly<Record<CardBrand, keyof ThreeDsRequestorConfig['brands']>> = { VISA: 'visa', MASTERCARD: 'mastercard', AMEX: 'amex', DISCOVER: 'discover' };

/** The AReq's requestor fields for a payment's brand; undefined when the merchant has none for it (no step-up possible). */
export function requestorFor(config: ThreeDsRequestorConfig, brand: CardBrand): RequestorProfile | undefined {
  const perBrand = config.brands[KEY[brand]];
  if (!perBrand) return undefined;
  return {
    threeDSRequestorID: perBrand.requestorId,
    threeDSRequestorName: perBrand.requestorName,
    threeDSRequestorURL: config.requestorUrl,
    mcc: config.mcc,
    merchantName: config.merchantName,
    merchantCountryCode: config.merchantCountryCode,
    acquirerBIN: perBrand.acquirerBin,
    acquirerMerchantID: perBrand.acquirerMerchantId,
    acquirerCountryCode: perBrand.acquirerCountryCode,
  };
}
