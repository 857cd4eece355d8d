/**
 * The decrypted payment data (EMVCo, SPEC §4.3 step 6), also the body shape of the Direct
 * Wallet endpoint (§4.4). Turns it into the one `PaymentCredential` the authorizer needs.
 * Validation messages never carry input values: zod 4 issues omit them, and the custom
 * checks below use fixed text.
 */
import * as z from 'zod';
import { CheckoutPayloadInvalidError } from '../errors.js';
import { leastAuthenticatedEci } from '../payments/three-ds-policy.js';
import { dynamicDataSchema, ECI, pickCryptogram, type DynamicDataType } from './dynamic-data.js';

export { DYNAMIC_DATA_TYPES, type DynamicDataType } from './dynamic-data.js';

export interface PaymentCredential {
  kind: 'token' | 'card';
  number: string;
  /** '01'..'12' */
  expiryMonth: string;
  /** Four digits. */
  expiryYear: string;
  cryptogram: string;
  /** The dynamic data type (never its value): recorded on the payment. */
  cryptogramType?: DynamicDataType;
  eci?: string;
  paymentAccountReference?: string;
}

/** A JSON number or a string, checked as text: `7` and `"7"` mean the same. */
const numberOrText = z.union([z.string(), z.number().int().nonnegative().transform(String)]);
/** `"07"`, `"7"` or `7` → `"07"`. */
const month = numberOrText.pipe(z.string().regex(/^(0?[1-9]|1[0-2])$/)).transform((m) => m.padStart(2, '0'));
/** Four digits, or two meaning 20YY. */
const year = numberOrText.pipe(z.string().regex(/^(\d{2}|\d{4})$/)).transform((y) => (y.length === 2 ? `20${y}` : y));
/** Strings only: a 16-digit JSON number loses precision beyond 2^53. */
const digits = (min: number, max: number) => z.string().regex(new RegExp(`^\\d{${min},${max}}$`));

/** ISO/IEC 7812 check digit. */
function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i += 1) {
    let digit = number.charCodeAt(number.length - 1 - i) - 48;
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * No object-level refinements, so the Direct Wallet endpoint can `.extend()` it; the rules
 * across fields (exactly one of token/card, a cryptogram present) live in `toCredential`.
 */
export const paymentDataSchema = z.looseObject({
  token: z.looseObject({ paymentToken: digits(13, 19), tokenExpirationMonth: month, tokenExpirationYear: year }).optional(),
  card: z
    .looseObject({
      primaryAccountNumber: digits(12, 19).refine(luhnValid, { message: 'Invalid card number' }),
      panExpirationMonth: month,
      panExpirationYear: year,
    })
    .optional(),
  dynamicData: z.union([dynamicDataSchema, z.array(dynamicDataSchema).max(16)]).optional(),
  paymentAccountReference: z.string().min(1).max(64).optional(),
  eci: z.string().regex(ECI).optional(),
  billingAddress: z.looseObject({}).optional(),
  shippingAddress: z.looseObject({}).optional(),
});

export type PaymentData = z.output<typeof paymentDataSchema>;

/** The JWE plaintext → credential. Every failure is 422 CHECKOUT_PAYLOAD_INVALID. */
export function parseDecryptedPayload(plaintext: Uint8Array): PaymentCredential {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plaintext));
  } catch {
    throw invalid('plaintext is empty, not UTF-8 or not JSON');
  }
  return parsePaymentData(value);
}

/** An already-parsed object (Direct Wallet) → credential. */
export function parsePaymentData(obj: unknown): PaymentCredential {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) throw invalid('payment data is not an object');
  const parsed = paymentDataSchema.safeParse(obj);
  if (!parsed.success) throw invalid(`payment data schema: ${describeIssues(parsed.error.issues)}`);
  return toCredential(parsed.data);
}

/**
 * Data already validated against `paymentDataSchema` (the Direct Wallet body, checked by
 * the HTTP layer) → credential: only the cross-field rules are left to check.
 */
export function toCredential(data: PaymentData): PaymentCredential {
  const account = accountOf(data);
  const entry = pickCryptogram(account.kind, data.dynamicData);
  if (!entry) {
    const reason = account.kind === 'token' ? 'token credential without a cryptogram (absent, or type NONE)' : 'no dynamicData value';
    throw new CheckoutPayloadInvalidError('The payment data has no cryptogram.', { cause: new Error(reason) });
  }
  const credential: PaymentCredential = { ...account, cryptogram: entry.dynamicDataValue };
  const eci = entry.eci ?? data.eci;
  if (entry.dynamicDataType !== undefined) credential.cryptogramType = entry.dynamicDataType;
  if (eci !== undefined) credential.eci = eci;
  if (data.paymentAccountReference !== undefined) credential.paymentAccountReference = data.paymentAccountReference;
  return credential;
}

type Account = Pick<PaymentCredential, 'kind' | 'number' | 'expiryMonth' | 'expiryYear'>;

/** Exactly one of `token` and `card`: with both, which one to charge would be a guess. */
function accountOf({ token, card }: PaymentData): Account {
  if (token && !card) {
    const { paymentToken: number, tokenExpirationMonth: expiryMonth, tokenExpirationYear: expiryYear } = token;
    return { kind: 'token', number, expiryMonth, expiryYear };
  }
  if (card && !token) {
    const { primaryAccountNumber: number, panExpirationMonth: expiryMonth, panExpirationYear: expiryYear } = card;
    return { kind: 'card', number, expiryMonth, expiryYear };
  }
  throw invalid('exactly one of token or card is required');
}

/**
 * SPEC §4.3 step 6: the ECI from the payment data (dynamic data, then top level) or the signed
 * `assuranceData.eci`. When both are there and disagree, the one that proves less for the
 * card's `brand` (three-ds-policy.ts): a favourable value in one place must not skip the
 * step-up the other calls for (e.g. Mastercard's 06 after the five-minute window). A malformed
 * assurance ECI is rejected, not ignored: a wrong ECI would steer the 3DS decision.
 */
export function resolveEci(credential: PaymentCredential, assuranceEci: string | undefined, brand: string): string | undefined {
  if (assuranceEci !== undefined && !ECI.test(assuranceEci)) throw invalid('assuranceData.eci is not two digits');
  if (credential.eci === undefined) return assuranceEci;
  if (assuranceEci === undefined) return credential.eci;
  return leastAuthenticatedEci(brand, credential.eci, assuranceEci);
}

/** What may be stored and shown (SPEC §3): never the number itself. */
export function maskedView(credential: PaymentCredential): { lastFour: string; expiry: string } {
  return { lastFour: credential.number.slice(-4), expiry: `${credential.expiryYear}-${credential.expiryMonth}` };
}

/** Paths and issue codes only, never values. */
const describeIssues = (issues: readonly { path: PropertyKey[]; code: string }[]) =>
  issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.code}`).join('; ');

const invalid = (reason: string) => new CheckoutPayloadInvalidError('The payment data is invalid.', { cause: new Error(reason) });
