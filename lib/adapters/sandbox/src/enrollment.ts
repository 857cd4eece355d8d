import { randomBytes } from 'node:crypto';
import { brandOf } from '../../../core/payments/brand.js';
import { SrcError } from './errors.js';
import type { EnrolledCard } from './session-store.js';

/** What the browser sends to enroll a card: the card in a JWE, masked fields in clear. */
export interface EnrollmentInput {
  encryptedCard: string;
  brand: 'VISA' | 'MASTERCARD';
  panBin: string;
  panLastFour: string;
  panExpirationMonth: string;
  panExpirationYear: string;
}

export const ENROLLMENT_JWE = { alg: 'RSA-OAEP-256', enc: 'A128GCM' } as const;
const MAX_JWE_LENGTH = 16 * 1024;
const GCM_IV_BYTES = 12;
const GCM_TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

const invalidCard = (why: string) => new SrcError(400, 'INVALID_CARD', why);

/**
 * The sandbox network cannot decrypt the card (its function has no kms:Decrypt, by design),
 * so it checks what can be checked without the private key: a compact JWE with the alg/enc
 * of the contract, addressed to the service's CURRENT payload key (kid of 4.2), whose
 * encrypted key is exactly one RSA block of that key and whose IV/tag fit A128GCM.
 */
export function checkEnrollmentJwe(compact: string, current: { kid: string; n: string }): void {
  if (compact.length > MAX_JWE_LENGTH) throw invalidCard('The encrypted card is too large.');
  const segments = compact.split('.');
  if (segments.length !== 5 || !segments.every((segment) => BASE64URL.test(segment))) throw invalidCard('The encrypted card is not a compact JWE.');
  const [header, encryptedKey, iv, ciphertext, tag] = segments.map((segment) => Buffer.from(segment, 'base64url')) as [Buffer, Buffer, Buffer, Buffer, Buffer];
  let protectedHeader: Record<string, unknown>;
  try {
    protectedHeader = JSON.parse(header.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw invalidCard('The encrypted card is not a compact JWE.');
  }
  if (!protectedHeader || typeof protectedHeader !== 'object' || Array.isArray(protectedHeader)) throw invalidCard('The encrypted card is not a compact JWE.');
  if (protectedHeader.alg !== ENROLLMENT_JWE.alg || protectedHeader.enc !== ENROLLMENT_JWE.enc || 'zip' in protectedHeader || 'crit' in protectedHeader) {
    throw invalidCard('The encrypted card must use RSA-OAEP-256 and A128GCM.');
  }
  if (protectedHeader.kid !== current.kid) throw invalidCard('The encrypted card is not encrypted to the current key.');
  if (
    encryptedKey.length !== Buffer.from(current.n, 'base64url').length ||
    iv.length !== GCM_IV_BYTES ||
    tag.length !== GCM_TAG_BYTES ||
    ciphertext.length === 0
  ) {
    throw invalidCard('The encrypted card is malformed.');
  }
}

/** The masked card the session keeps; refuses data that cannot be a valid, unexpired card. */
export function maskedEnrollment(input: EnrollmentInput, acceptedBrands: readonly string[], now: Date): EnrolledCard {
  if (!acceptedBrands.includes(input.brand)) throw invalidCard('This card brand is not accepted here.');
  if (brandOf(input.panBin) !== input.brand) throw invalidCard('The card number does not match the brand.');
  const year = input.panExpirationYear.length === 2 ? `20${input.panExpirationYear}` : input.panExpirationYear;
  const month = Number(input.panExpirationMonth);
  const expiry = Number(year) * 12 + month;
  if (expiry < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) throw invalidCard('The card has expired.');
  return {
    srcDigitalCardId: `enr_${randomBytes(12).toString('base64url')}`,
    brand: input.brand,
    panBin: input.panBin.slice(0, 6),
    panLastFour: input.panLastFour,
    panExpirationMonth: input.panExpirationMonth.padStart(2, '0'),
    panExpirationYear: year,
    descriptorName: input.brand === 'VISA' ? 'Visa card' : 'Mastercard card',
  };
}
