import type { CardBrand } from '../../../core/ports/three-ds-server.js';

/**
 * The ECI of a successful authentication when the ARes/RReq leaves it out (`eci` is optional in
 * the tables): Visa, Amex and Discover 05 authenticated / 06 attempted, Mastercard 02 / 01
 * (the same meanings lib/core/payments/three-ds-policy.ts reads). A value the ACS gave is kept.
 */
export function eciFor(brand: CardBrand, transStatus: 'Y' | 'A', given: string | undefined): string {
  if (given) return given;
  if (brand === 'MASTERCARD') return transStatus === 'Y' ? '02' : '01';
  return transStatus === 'Y' ? '05' : '06';
}
