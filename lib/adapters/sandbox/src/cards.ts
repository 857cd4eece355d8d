import { createHash } from 'node:crypto';
import { SANDBOX_CARDS, type SandboxCard } from '../sandbox-cards.js';
import type { SandboxConsumer } from './consumers.js';
import type { EnrolledCard } from './session-store.js';

/** The card as the SDK shows it (contract: MaskedCard). */
export interface MaskedCard {
  srcDigitalCardId: string;
  brand: 'VISA' | 'MASTERCARD';
  panLastFour: string;
  panExpirationMonth: string;
  panExpirationYear: string;
  descriptorName: string;
}

/** Catalogue cards are their own srcDigitalCardId (stable, so tests and demos can name them). */
export function catalogueCards(consumer: SandboxConsumer): SandboxCard[] {
  return consumer.cardIds.map((id) => SANDBOX_CARDS.find((card) => card.id === id)).filter((card): card is SandboxCard => card !== undefined);
}

export function maskCatalogueCard(card: SandboxCard): MaskedCard {
  return {
    srcDigitalCardId: card.id,
    brand: card.brand,
    panLastFour: card.panLastFour,
    panExpirationMonth: card.expiryMonth,
    panExpirationYear: card.expiryYear,
    descriptorName: card.descriptorName,
  };
}

export function maskEnrolledCard(card: EnrolledCard): MaskedCard {
  const { panBin: _bin, ...masked } = card;
  return masked;
}

const TOKEN_BIN = { VISA: '489537', MASTERCARD: '520473' } as const;
const PAR_PREFIX = { VISA: 'V001', MASTERCARD: '5001' } as const;
/** The sandbox authorizer declines tokens ending 0002; an enrolled card is a good card. */
const DECLINE_TRIGGER = '0002';
const PAR_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * The network token of an enrolled card, made up at checkout time from its srcDigitalCardId:
 * brand-appropriate, Luhn-valid, the same every time, and never stored anywhere. Enrolled
 * cards carry a fully authenticated ECI (Visa 05, Mastercard 02).
 */
export function enrolledSandboxCard(card: EnrolledCard): SandboxCard {
  const digest = createHash('sha256').update(`sandbox-src-token\u0000${card.srcDigitalCardId}`).digest();
  const digits = Array.from(digest, (byte) => String(byte % 10)).join('');
  let body = TOKEN_BIN[card.brand] + digits.slice(0, 9);
  let token = body + luhnCheckDigit(body);
  if (token.endsWith(DECLINE_TRIGGER)) {
    body = body.slice(0, -1) + String((Number(body.at(-1)) + 1) % 10);
    token = body + luhnCheckDigit(body);
  }
  const parDigest = createHash('sha256').update(`sandbox-src-par\u0000${card.srcDigitalCardId}`).digest();
  const par = PAR_PREFIX[card.brand] + Array.from(parDigest.subarray(0, 25), (byte) => PAR_ALPHABET[byte % PAR_ALPHABET.length]).join('');
  return {
    id: card.srcDigitalCardId,
    brand: card.brand,
    token,
    panBin: card.panBin,
    panLastFour: card.panLastFour,
    expiryMonth: card.panExpirationMonth,
    expiryYear: card.panExpirationYear,
    paymentAccountReference: par,
    descriptorName: card.descriptorName,
    eci: card.brand === 'VISA' ? '05' : '02',
  };
}

export function luhnCheckDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) {
    let digit = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return String((10 - (sum % 10)) % 10);
}
