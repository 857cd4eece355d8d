import { randomBytes, randomUUID } from 'node:crypto';
import { compactDecrypt, importJWK, type JWK } from 'jose';
import type { FakeNetworkName } from './fake-network-keys.js';

/**
 * What a fake network remembers: its one test consumer, sessions, one-time codes, cards and
 * pending checkouts. Test data (documented in test/e2e/network-sdks.e2e.test.ts):
 * consumer `c2p.shopper@example.com` / +971 50 000 0009, one-time code `246810`,
 * Visa fake card Visa ••1111, Mastercard fake card Mastercard ••4444. The Visa network also has
 * four cards it did not authenticate (ECI 07: a production merchant steps up through the 3DS
 * Server) whose network tokens end in the same four digits as the card — the fake 3DS Server's
 * decision codes (test/fakes/three-ds-server/decisions.ts): ••0000 (a 3DS Method, then
 * frictionless), ••0200 (a 3DS Method that never completes: the page gives up after 10 s), ••0172
 * (a challenge: code 1234), ••0110 (refused, N).
 */
export const THREE_DS_TEST_CARDS = ['0000', '0200', '0172', '0110'] as const;
export const FAKE_CONSUMER = { email: 'c2p.shopper@example.com', countryCode: '971', phoneNumber: '500000009' } as const;
export const FAKE_OTP = '246810';
/** Wrong codes before the fake locks the session (the networks' own limit is not published). */
const MAX_WRONG_CODES = 3;

export interface FakeCard {
  srcDigitalCardId: string;
  brand: 'visa' | 'mastercard';
  panBin: string;
  panLastFour: string;
  panExpirationMonth: string;
  panExpirationYear: string;
  descriptorName: string;
  token: string;
  paymentAccountReference: string;
  /** The ECI the checkout carries (default: authenticated, Visa 05 / Mastercard 02). */
  eci?: string;
}

export interface FakeSession {
  id: string;
  dpaId: string;
  consumerKnown: boolean;
  validated: boolean;
  wrongCodes: number;
}

export interface FakeCheckout {
  id: string;
  session: FakeSession;
  card: FakeCard;
  amount?: { transactionAmount?: unknown; transactionCurrencyCode?: unknown };
}

/** A failure the SDK reports with a reason code (the code names come from each network's reference). */
export class FakeNetworkError extends Error {
  constructor(
    readonly reason: string,
    readonly status = 400,
  ) {
    super(reason);
  }
}

export class FakeNetworkState {
  private readonly sessions = new Map<string, FakeSession>();
  private readonly checkouts = new Map<string, FakeCheckout>();
  readonly cards: FakeCard[];

  constructor(
    readonly network: FakeNetworkName,
    private readonly cardKey: JWK,
  ) {
    this.cards =
      network === 'visa'
        ? [card('visa', '411111', '1111', 'Visa Signature'), ...THREE_DS_TEST_CARDS.map((last4) => threeDsTestCard(last4))]
        : [card('mastercard', '555555', '4444', 'Mastercard World')];
  }

  open(dpaId: unknown): FakeSession {
    if (typeof dpaId !== 'string' || !dpaId) throw new FakeNetworkError('INVALID_PARAMETER');
    const session: FakeSession = { id: randomUUID(), dpaId, consumerKnown: false, validated: false, wrongCodes: 0 };
    this.sessions.set(session.id, session);
    return session;
  }

  session(id: unknown): FakeSession {
    const session = typeof id === 'string' ? this.sessions.get(id) : undefined;
    if (!session) throw new FakeNetworkError('AUTH_INVALID', 401);
    return session;
  }

  /** True when the identity is the fake's consumer (email, or country code + national number). */
  lookup(session: FakeSession, identity: { email?: string; countryCode?: string; phoneNumber?: string }): boolean {
    const email = identity.email?.trim().toLowerCase();
    const digits = `${identity.countryCode ?? ''}${identity.phoneNumber ?? ''}`.replace(/\D/g, '');
    session.consumerKnown = email === FAKE_CONSUMER.email || digits === `${FAKE_CONSUMER.countryCode}${FAKE_CONSUMER.phoneNumber}`;
    session.validated = false;
    return session.consumerKnown;
  }

  /** "Sends" the code (it is always FAKE_OTP) and answers the masked channel. */
  sendCode(session: FakeSession): string {
    if (!session.consumerKnown) throw new FakeNetworkError('ACCT_INACCESSIBLE');
    if (session.wrongCodes >= MAX_WRONG_CODES) throw new FakeNetworkError('RETRIES_EXCEEDED');
    return 'c***@example.com';
  }

  validate(session: FakeSession, code: unknown): FakeCard[] {
    if (!session.consumerKnown) throw new FakeNetworkError('ACCT_INACCESSIBLE');
    if (session.wrongCodes >= MAX_WRONG_CODES) throw new FakeNetworkError('RETRIES_EXCEEDED');
    if (code !== FAKE_OTP) {
      session.wrongCodes += 1;
      throw new FakeNetworkError(session.wrongCodes >= MAX_WRONG_CODES ? 'RETRIES_EXCEEDED' : 'CODE_INVALID');
    }
    session.validated = true;
    return this.cards;
  }

  /** The card list, for a validated session only. */
  list(session: FakeSession): FakeCard[] {
    if (!session.validated) throw new FakeNetworkError('AUTH_INVALID', 401);
    return this.cards;
  }

  /** A checkout with an enrolled card, or with a new card JWE-encrypted to this network's card key. */
  async prepare(session: FakeSession, input: { srcDigitalCardId?: unknown; encryptedCard?: unknown; amount?: FakeCheckout['amount'] }): Promise<FakeCheckout> {
    let chosen: FakeCard | undefined;
    if (typeof input.encryptedCard === 'string') chosen = await this.enrol(input.encryptedCard);
    else if (session.validated) chosen = this.cards.find((c) => c.srcDigitalCardId === input.srcDigitalCardId);
    if (!chosen) throw new FakeNetworkError(session.validated ? 'INVALID_PARAMETER' : 'AUTH_INVALID', session.validated ? 400 : 401);
    const checkout: FakeCheckout = { id: randomUUID(), session, card: chosen, ...(input.amount ? { amount: input.amount } : {}) };
    this.checkouts.set(checkout.id, checkout);
    return checkout;
  }

  checkout(id: unknown): FakeCheckout {
    const found = typeof id === 'string' ? this.checkouts.get(id) : undefined;
    if (!found) throw new FakeNetworkError('INVALID_PARAMETER');
    return found;
  }

  /** Opens the card JWE with the private half of the published card key; a bad card is CARD_INVALID. */
  private async enrol(jwe: string): Promise<FakeCard> {
    let fields: Record<string, unknown>;
    try {
      const { plaintext } = await compactDecrypt(jwe, await importJWK(this.cardKey, 'RSA-OAEP-256'));
      fields = JSON.parse(new TextDecoder().decode(plaintext)) as Record<string, unknown>;
    } catch {
      throw new FakeNetworkError('CARD_INVALID');
    }
    const pan = String(fields.primaryAccountNumber ?? '');
    if (!/^\d{12,19}$/.test(pan) || !luhn(pan)) throw new FakeNetworkError('CARD_INVALID');
    const brand = pan.startsWith('4') ? 'visa' : 'mastercard';
    const name = String(fields.cardHolderName ?? fields.cardholderFirstName ?? 'New card');
    const added = card(brand, pan.slice(0, 6), pan.slice(-4), name, String(fields.panExpirationMonth ?? '12'), String(fields.panExpirationYear ?? '2030'));
    this.cards.push(added);
    return added;
  }
}

function card(brand: FakeCard['brand'], panBin: string, panLastFour: string, descriptorName: string, month = '12', year = '2030'): FakeCard {
  const prefix = brand === 'visa' ? '489537' : '522222';
  return {
    srcDigitalCardId: randomUUID(),
    brand,
    panBin,
    panLastFour,
    panExpirationMonth: month.padStart(2, '0'),
    panExpirationYear: year.length === 2 ? `20${year}` : year,
    descriptorName,
    token: withLuhn(`${prefix}${String(randomBytes(4).readUInt32BE(0)).padStart(9, '0')}`),
    paymentAccountReference: `V0010013${randomBytes(10).toString('hex').toUpperCase().slice(0, 21)}`,
  };
}

/** A Visa card the network did not authenticate (ECI 07), its token ending in `last4` (Luhn-valid: the digit before it fits). */
function threeDsTestCard(last4: string): FakeCard {
  const base = card('visa', '400000', last4, `Visa 3DS ${last4}`);
  const prefix = `489537${String(randomBytes(3).readUIntBE(0, 3) % 100_000).padStart(5, '0')}`; // 16 digits in all
  const check = [...'0123456789'].find((d) => luhn(`${prefix}${d}${last4}`))!;
  return { ...base, token: `${prefix}${check}${last4}`, eci: '07' };
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

function withLuhn(body: string): string {
  for (let check = 0; check < 10; check++) if (luhn(`${body}${check}`)) return `${body}${check}`;
  return `${body}0`;
}
