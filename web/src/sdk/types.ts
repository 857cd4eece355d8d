/**
 * The one Click to Pay SDK interface the page talks to. Two implementations exist: the
 * sandbox SDK (fetch calls to the service's own /sandbox/src/*) and the real network SDKs
 * (Visa Unified Click to Pay, Mastercard Checkout Services) loaded from configuration.
 * The page never knows which one it has (createClickToPaySdk in ./index.ts chooses).
 */

export type CardNetwork = 'VISA' | 'MASTERCARD' | 'AMEX' | 'DISCOVER';

export interface SdkInitOptions {
  dpaId: string;
  dpaClientId: string;
  dpaName: string;
  /** Lower-case brand names as in the merchant configuration, e.g. ["visa","mastercard"]. */
  cardBrands: string[];
  /** BCP 47 or Java-style locale from the merchant configuration (en_AE). */
  locale: string;
  /** The order's amount in major units, for the networks' transaction options. */
  amount: { value: number; currencyCode: string };
  /**
   * The service's current payload key (4.2). Only the sandbox network encrypts new cards to it;
   * the real networks publish their own card-encryption key (see ./network-sdk.ts).
   */
  serviceEncryptionKey?: ServiceEncryptionKey;
}

export interface ServiceEncryptionKey {
  kty: string;
  kid: string;
  n: string;
  e: string;
}

export type ConsumerIdentity = { type: 'EMAIL'; value: string } | { type: 'MOBILE_NUMBER'; value: string; countryCode: string; nationalNumber: string };

export type ValidationChannel = 'EMAIL' | 'SMS';

export interface LookupResult {
  consumerPresent: boolean;
  /** Present when a one-time code was sent. Absent for a present consumer = already recognised. */
  validation?: { maskedChannel: string; channel: ValidationChannel };
}

export interface MaskedCard {
  srcDigitalCardId: string;
  brand: CardNetwork;
  panLastFour: string;
  panExpirationMonth: string;
  panExpirationYear: string;
  descriptorName: string;
}

export interface MaskedConsumer {
  maskedEmail?: string;
  maskedMobileNumber?: string;
}

/**
 * A card the shopper typed. It never leaves the browser in clear: each implementation
 * JWE-encrypts it to the key its network names (the sandbox: the 4.2 key; Visa: the key Visa
 * hands over for the DPA; Mastercard: its SDK's encryptCard) and sends only masked data beside it.
 */
export interface NewCard {
  primaryAccountNumber: string;
  panExpirationMonth: string;
  panExpirationYear: string;
  cardSecurityCode: string;
  cardholderName: string;
  brand: CardNetwork;
}

export interface CheckoutInput {
  srcDigitalCardId: string;
  /** Major units, as the networks' transactionAmount expects. */
  amount: { value: number; currencyCode: string };
}

/** What the network SDK's checkout() resolved with; passed to 4.3 unmodified. */
export type CheckoutResult = Record<string, unknown>;

export interface ClickToPaySdk {
  init(options: SdkInitOptions): Promise<void>;
  identityLookup(identity: ConsumerIdentity): Promise<LookupResult>;
  validateOtp(otp: string): Promise<{ consumer: MaskedConsumer }>;
  resendOtp(): Promise<{ maskedChannel: string; resendsLeft?: number }>;
  getCards(): Promise<MaskedCard[]>;
  enrollCard(card: NewCard): Promise<MaskedCard>;
  checkout(input: CheckoutInput): Promise<CheckoutResult>;
  signOut(): Promise<void>;
}

/** Normalised failure reasons; the page maps them to its own text (never shows raw payloads). */
export type SdkErrorReason =
  | 'INIT_FAILED'
  | 'INVALID_IDENTITY'
  | 'ACCOUNT_LOCKED'
  | 'OTP_INVALID'
  | 'OTP_EXPIRED'
  | 'RETRIES_EXCEEDED'
  | 'RESEND_LIMIT'
  | 'NO_PENDING_OTP'
  | 'NOT_AUTHENTICATED'
  | 'CARDS_UNAVAILABLE'
  | 'INVALID_CARD'
  | 'UNKNOWN_CARD'
  | 'CHECKOUT_FAILED'
  | 'CHECKOUT_ABANDONED'
  | 'NETWORK'
  | 'UNKNOWN';

export class SdkError extends Error {
  constructor(
    readonly reason: SdkErrorReason,
    readonly details: { remainingAttempts?: number } = {},
  ) {
    super(`Click to Pay SDK error: ${reason}`);
    this.name = 'SdkError';
  }
}

export function isSdkError(error: unknown): error is SdkError {
  return error instanceof SdkError;
}
