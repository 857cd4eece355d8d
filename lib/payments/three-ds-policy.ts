import type { ThreeDsPolicy } from '../domain/merchant.js';

/**
 * ECI classes. Visa uses 05/06/07 and Mastercard 02/01/00 for full/attempted/none; the two
 * ranges do not overlap, so the class does not depend on knowing the brand.
 */
const FULL = new Set(['05', '02']);
const NONE = new Set(['07', '00']);

/** SPEC 4.3 step 8. */
export function needsStepUp(policy: ThreeDsPolicy, eci: string | undefined): boolean {
  switch (policy) {
    case 'never':
      return false;
    case 'always':
      return eci === undefined || !FULL.has(eci);
    case 'risk-based':
      return eci === undefined || NONE.has(eci);
  }
}

/** The ECI a successful challenge yields for a brand. */
export function authenticatedEci(brand: string): string {
  return brand === 'MASTERCARD' ? '02' : '05';
}
