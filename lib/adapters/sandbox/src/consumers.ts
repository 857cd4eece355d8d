import { maskEmail } from '../checkout-response.js';

/**
 * The sandbox network's test consumers (docs/sandbox-src-contract.md, "Test consumers").
 * OTP `123456` for all of them. Identities are fixed test data; an identity that is not
 * here is simply not enrolled (`consumerPresent: false`) and is never stored.
 */
export interface SandboxConsumer {
  id: string;
  email?: string;
  /** E.164, e.g. +971500000001. */
  mobileNumber?: string;
  /** Ids of lib/adapters/sandbox/sandbox-cards.ts, which are also the cards' srcDigitalCardIds. */
  cardIds: readonly string[];
  /** The account is locked: identity lookup fails (ACCOUNT_LOCKED). */
  locked?: boolean;
  /** The card list cannot be retrieved after authentication (SERVICE_ERROR). */
  cardsUnavailable?: boolean;
}

export const SANDBOX_CONSUMERS: readonly SandboxConsumer[] = [
  {
    id: 'returning',
    email: 'returning@example.com',
    mobileNumber: '+971500000001',
    cardIds: ['visa-classic', 'mastercard-world', 'visa-3ds', 'visa-expired'],
  },
  { id: 'sms-only', mobileNumber: '+971500000002', cardIds: ['visa-classic'] },
  { id: 'new', email: 'new@example.com', cardIds: [] },
  { id: 'locked', email: 'locked@example.com', cardIds: [], locked: true },
  { id: 'cards-error', email: 'cards-error@example.com', cardIds: ['visa-classic'], cardsUnavailable: true },
  { id: 'checkout-error', email: 'checkout-error@example.com', cardIds: ['visa-checkout-error'] },
];

export type IdentityType = 'EMAIL' | 'MOBILE_NUMBER';
export type ValidationChannel = 'EMAIL' | 'SMS';

/** Phone numbers compare by digits only: "+971 50 000 0001" and "971500000001" are one number. */
const digitsOf = (value: string): string => value.replace(/\D/g, '');

export function findConsumer(identity: { type: IdentityType; value: string }): SandboxConsumer | undefined {
  if (identity.type === 'EMAIL') {
    const email = identity.value.trim().toLowerCase();
    return SANDBOX_CONSUMERS.find((consumer) => consumer.email === email);
  }
  const digits = digitsOf(identity.value);
  return SANDBOX_CONSUMERS.find((consumer) => consumer.mobileNumber !== undefined && digitsOf(consumer.mobileNumber) === digits);
}

export function consumerById(id: string | undefined): SandboxConsumer | undefined {
  return id === undefined ? undefined : SANDBOX_CONSUMERS.find((consumer) => consumer.id === id);
}

/** The one-time code goes to the channel the consumer was identified by. */
export function channelFor(type: IdentityType): ValidationChannel {
  return type === 'EMAIL' ? 'EMAIL' : 'SMS';
}

export function maskedChannel(consumer: SandboxConsumer, channel: ValidationChannel): string {
  return channel === 'EMAIL' ? maskEmail(consumer.email ?? '') : maskMobileNumber(consumer.mobileNumber ?? '');
}

export function maskedConsumer(consumer: SandboxConsumer): { maskedEmail?: string; maskedMobileNumber?: string } {
  return {
    ...(consumer.email ? { maskedEmail: maskEmail(consumer.email) } : {}),
    ...(consumer.mobileNumber ? { maskedMobileNumber: maskMobileNumber(consumer.mobileNumber) } : {}),
  };
}

/** +971500000001 → +971*****0001 (country code and last four stay readable). */
export function maskMobileNumber(number: string): string {
  if (number.length <= 8) return '*'.repeat(number.length);
  return `${number.slice(0, 4)}${'*'.repeat(number.length - 8)}${number.slice(-4)}`;
}
