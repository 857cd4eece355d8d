import { encryptNewCard } from './encrypt-card.js';
import {
  SdkError,
  type CheckoutInput,
  type CheckoutResult,
  type ClickToPaySdk,
  type ConsumerIdentity,
  type NewCard,
  type LookupResult,
  type MaskedCard,
  type MaskedConsumer,
  type SdkErrorReason,
  type SdkInitOptions,
  type ServiceEncryptionKey,
  type ValidationChannel,
} from './types.js';

/**
 * The sandbox Click to Pay network (docs/sandbox-src-contract.md): same-origin JSON POSTs to
 * /sandbox/src/*, no bearer token. Holds the SRC session id in memory only.
 */
export class SandboxClickToPaySdk implements ClickToPaySdk {
  private sessionId: string | undefined;
  private dpaId = '';
  private encryptionKey: ServiceEncryptionKey | undefined;

  constructor(private readonly baseUrl = '/sandbox/src') {}

  async init(options: SdkInitOptions): Promise<void> {
    this.dpaId = options.dpaId;
    this.encryptionKey = options.serviceEncryptionKey;
    const body = await this.call<{ sessionId?: unknown }>(
      '/init',
      {
        dpaId: options.dpaId,
        dpaClientId: options.dpaClientId,
        locale: options.locale,
        cardBrands: options.cardBrands,
      },
      'INIT_FAILED',
      true,
    );
    if (typeof body.sessionId !== 'string' || !body.sessionId) throw new SdkError('INIT_FAILED');
    this.sessionId = body.sessionId;
  }

  async identityLookup(identity: ConsumerIdentity): Promise<LookupResult> {
    const body = await this.call<{ consumerPresent?: unknown; maskedValidationChannel?: unknown; validationChannel?: unknown }>(
      '/identity-lookup',
      { sessionId: this.session(), identity: { type: identity.type, value: identity.value } },
      'UNKNOWN',
    );
    const consumerPresent = body.consumerPresent === true;
    if (!consumerPresent) return { consumerPresent };
    const channel: ValidationChannel = body.validationChannel === 'SMS' ? 'SMS' : 'EMAIL';
    return {
      consumerPresent,
      validation: { maskedChannel: typeof body.maskedValidationChannel === 'string' ? body.maskedValidationChannel : '', channel },
    };
  }

  async validateOtp(otp: string): Promise<{ consumer: MaskedConsumer }> {
    const body = await this.call<{ consumer?: MaskedConsumer }>('/otp/validate', { sessionId: this.session(), otp }, 'UNKNOWN');
    const consumer: MaskedConsumer = {};
    if (typeof body.consumer?.maskedEmail === 'string') consumer.maskedEmail = body.consumer.maskedEmail;
    if (typeof body.consumer?.maskedMobileNumber === 'string') consumer.maskedMobileNumber = body.consumer.maskedMobileNumber;
    return { consumer };
  }

  async resendOtp(): Promise<{ maskedChannel: string; resendsLeft?: number }> {
    const body = await this.call<{ maskedValidationChannel?: unknown; resendsLeft?: unknown }>('/otp/resend', { sessionId: this.session() }, 'UNKNOWN');
    return {
      maskedChannel: typeof body.maskedValidationChannel === 'string' ? body.maskedValidationChannel : '',
      ...(typeof body.resendsLeft === 'number' ? { resendsLeft: body.resendsLeft } : {}),
    };
  }

  async getCards(): Promise<MaskedCard[]> {
    const body = await this.call<{ cards?: unknown }>('/cards', { sessionId: this.session() }, 'CARDS_UNAVAILABLE', true);
    return Array.isArray(body.cards) ? body.cards.flatMap(toMaskedCard) : [];
  }

  /** The card goes to the sandbox network as a compact JWE (RSA-OAEP-256 + A128GCM) to the 4.2 key. */
  async enrollCard(card: NewCard): Promise<MaskedCard> {
    const key = this.encryptionKey;
    if (!key) throw new SdkError('INIT_FAILED');
    const encryptedCard = await encryptNewCard(card, key, 'cardholderFullName');
    const body = await this.call<{ card?: unknown }>(
      '/cards/enroll',
      {
        sessionId: this.session(),
        encryptedCard,
        brand: card.brand,
        panBin: card.primaryAccountNumber.slice(0, 6),
        panLastFour: card.primaryAccountNumber.slice(-4),
        panExpirationMonth: card.panExpirationMonth,
        panExpirationYear: card.panExpirationYear,
        cardholderName: card.cardholderName,
      },
      'INVALID_CARD',
    );
    const [masked] = toMaskedCard(body.card);
    if (!masked) throw new SdkError('INVALID_CARD');
    return masked;
  }

  async checkout(input: CheckoutInput): Promise<CheckoutResult> {
    const body = await this.call<CheckoutResult>(
      '/checkout',
      {
        sessionId: this.session(),
        srcDigitalCardId: input.srcDigitalCardId,
        dpaId: this.dpaId,
        transactionAmount: { transactionAmount: input.amount.value, transactionCurrencyCode: input.amount.currencyCode },
      },
      'CHECKOUT_FAILED',
      true,
    );
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new SdkError('CHECKOUT_FAILED');
    return body;
  }

  async signOut(): Promise<void> {
    if (!this.sessionId) return;
    try {
      await this.call('/sign-out', { sessionId: this.sessionId }, 'UNKNOWN');
    } catch {
      // Signing out of the sandbox is best effort: the page forgets the identity either way.
    }
  }

  private session(): string {
    if (!this.sessionId) throw new SdkError('INIT_FAILED');
    return this.sessionId;
  }

  /**
   * One POST. Errors become SdkError with a normalised reason; `fallback` names what a failure
   * of this call means when the network gives no reason we know. `fallbackWins` makes every
   * unrecognised/5xx failure of this call that fallback (init, cards, checkout).
   */
  private async call<T>(path: string, payload: unknown, fallback: SdkErrorReason, fallbackWins = false): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(payload),
        credentials: 'same-origin',
      });
    } catch {
      throw new SdkError(fallbackWins ? fallback : 'NETWORK');
    }
    const body = (await response.json().catch(() => undefined)) as unknown;
    if (response.ok) return (body ?? {}) as T;
    const error = (body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined) as
      | { reason?: unknown; remainingAttempts?: unknown }
      | undefined;
    const reason = typeof error?.reason === 'string' ? error.reason : '';
    const remaining = error?.remainingAttempts ?? (body as { remainingAttempts?: unknown } | undefined)?.remainingAttempts;
    const details = typeof remaining === 'number' ? { remainingAttempts: remaining } : {};
    throw new SdkError(mapReason(reason, fallback, fallbackWins), details);
  }
}

const KNOWN: Record<string, SdkErrorReason> = {
  INVALID_DPA: 'INIT_FAILED',
  INVALID_IDENTITY: 'INVALID_IDENTITY',
  ACCOUNT_LOCKED: 'ACCOUNT_LOCKED',
  OTP_INVALID: 'OTP_INVALID',
  OTP_EXPIRED: 'OTP_EXPIRED',
  RETRIES_EXCEEDED: 'RETRIES_EXCEEDED',
  // The network's per-consumer limit on wrong codes: to the shopper, the same as a locked code entry.
  OTP_ATTEMPTS_EXCEEDED: 'RETRIES_EXCEEDED',
  RESEND_LIMIT: 'RESEND_LIMIT',
  NO_PENDING_OTP: 'NO_PENDING_OTP',
  NOT_AUTHENTICATED: 'NOT_AUTHENTICATED',
  SESSION_NOT_FOUND: 'NOT_AUTHENTICATED',
  INVALID_CARD: 'INVALID_CARD',
  UNKNOWN_CARD: 'UNKNOWN_CARD',
  CHECKOUT_FAILED: 'CHECKOUT_FAILED',
  SERVICE_ERROR: 'CARDS_UNAVAILABLE',
};

function mapReason(reason: string, fallback: SdkErrorReason, fallbackWins: boolean): SdkErrorReason {
  const known = KNOWN[reason];
  if (known === 'NOT_AUTHENTICATED' || known === 'UNKNOWN_CARD') return known;
  if (fallbackWins) return fallback;
  return known ?? fallback;
}

export function toMaskedCard(value: unknown): MaskedCard[] {
  if (!value || typeof value !== 'object') return [];
  const card = value as Record<string, unknown>;
  const str = (key: string) => (typeof card[key] === 'string' ? (card[key] as string) : '');
  const brand = str('brand').toUpperCase();
  if (!str('srcDigitalCardId') || !/^\d{4}$/.test(str('panLastFour'))) return [];
  return [
    {
      srcDigitalCardId: str('srcDigitalCardId'),
      brand: brand === 'MASTERCARD' || brand === 'AMEX' || brand === 'DISCOVER' ? brand : 'VISA',
      panLastFour: str('panLastFour'),
      panExpirationMonth: str('panExpirationMonth'),
      panExpirationYear: str('panExpirationYear'),
      descriptorName: str('descriptorName'),
    },
  ];
}
