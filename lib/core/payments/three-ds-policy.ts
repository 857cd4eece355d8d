import type { ThreeDsPolicy } from '../domain/merchant.js';

/** What an ECI says about the cardholder's authentication, for the liability it carries. */
export type EciMeaning = 'authenticated' | 'attempted' | 'not-authenticated';

/**
 * ECI values per brand (SPEC §4.3 step 8). Visa (and Amex, Discover, which follow it):
 * 05 authenticated, 06 attempted, 07 not authenticated. Mastercard: 02 authenticated,
 * 01 attempted, 00 not authenticated, and 06 — which Mastercard's SRC returns when the
 * checkout payload is fetched more than five minutes after the authentication (the proof of
 * authentication expired) or with another srcCorrelationId — "merchant risk": no liability
 * shift, so it counts as not authenticated
 * (developer.mastercard.com, mastercard-checkout-solutions, "Retrieve Transaction Payload").
 * The same `06` is "attempted" for Visa, so the meaning depends on the brand.
 */
const VISA_LIKE: Readonly<Record<string, EciMeaning>> = { '05': 'authenticated', '06': 'attempted', '07': 'not-authenticated' };
const MASTERCARD: Readonly<Record<string, EciMeaning>> = {
  '02': 'authenticated',
  '01': 'attempted',
  '00': 'not-authenticated',
  '06': 'not-authenticated',
};
/** A brand we cannot name: only the values that mean the same for every scheme. */
const UNKNOWN_BRAND: Readonly<Record<string, EciMeaning>> = {
  '05': 'authenticated',
  '02': 'authenticated',
  '01': 'attempted',
  '07': 'not-authenticated',
  '00': 'not-authenticated',
};

/** The meaning of `eci` for `brand` (brand.ts names); undefined when absent or not a value of that brand. */
export function eciMeaning(brand: string, eci: string | undefined): EciMeaning | undefined {
  if (eci === undefined) return undefined;
  const table = brand === 'MASTERCARD' ? MASTERCARD : brand === 'UNKNOWN' ? UNKNOWN_BRAND : VISA_LIKE;
  return Object.hasOwn(table, eci) ? table[eci] : undefined;
}

const STRENGTH: Readonly<Record<EciMeaning, number>> = { authenticated: 3, attempted: 2, 'not-authenticated': 1 };

/**
 * Of two ECIs the network sent for one checkout (payment data and assuranceData, SPEC 4.3 step
 * 6), the one that proves less: when they disagree, the favourable one must not skip the
 * step-up (a value that is no ECI of the brand proves nothing, so it is the weakest). Equal
 * strength: `preferred`.
 */
export function leastAuthenticatedEci(brand: string, preferred: string, other: string): string {
  const strength = (eci: string) => {
    const meaning = eciMeaning(brand, eci);
    return meaning === undefined ? 0 : STRENGTH[meaning];
  };
  return strength(other) < strength(preferred) ? other : preferred;
}

/**
 * SPEC 4.3 step 8. `risk-based` steps up when the ECI says not authenticated, is missing, or
 * is no ECI of the brand (an unknown value proves nothing); `always` unless fully authenticated.
 */
export function needsStepUp(policy: ThreeDsPolicy, eci: string | undefined, brand: string): boolean {
  const meaning = eciMeaning(brand, eci);
  switch (policy) {
    case 'never':
      return false;
    case 'always':
      return meaning !== 'authenticated';
    case 'risk-based':
      return meaning === undefined || meaning === 'not-authenticated';
  }
}

/** The ECI a successful challenge yields for a brand. */
export function authenticatedEci(brand: string): string {
  return brand === 'MASTERCARD' ? '02' : '05';
}
