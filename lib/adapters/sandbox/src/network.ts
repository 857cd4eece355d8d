import { StoreConflictError } from '../../../core/ports/store-conflict.js';
import { randomBytes } from 'node:crypto';
import type { ConfirmationRecord, SandboxConfirmationLedger } from './confirmation-ledger.js';
import { clientBucket } from './client-bucket.js';
import type { PayloadPublicKey } from '../../kms/payload-key-vault.js';

import { channelFor, consumerById, findConsumer, maskedChannel, maskedConsumer, type ValidationChannel } from './consumers.js';
import { catalogueCards, maskCatalogueCard, maskEnrolledCard, type MaskedCard } from './cards.js';
import { checkoutResult } from './checkout.js';
import { checkEnrollmentJwe, maskedEnrollment } from './enrollment.js';
import { notAuthenticated, sessionNotFound, SrcError } from './errors.js';
import { otpOutcome, resendOtp, startOtp, validateOtp, type RuleResult } from './otp.js';
import type { LimitName, SrcLimits, WindowLimit } from './rate-limits.js';
import type { CheckoutBody, ConfirmationBody, EnrollCardBody, IdentityLookupBody, InitBody, ValidateOtpBody } from './schemas.js';
import type { NetworkSigningKeys } from './signing-keys.js';
import type { SrcSession, SrcSessionState, SrcSessionStore } from './session-store.js';

export interface SandboxSrcDeps {
  sessions: SrcSessionStore;
  signingKeys: NetworkSigningKeys;
  /** The service's payload keys (4.2), current first: enrollment JWEs and checkout payloads use [0]. */
  payloadKeys: { publicKeys(): Promise<PayloadPublicKey[]> };
  /** Abuse limits (rate-limits.ts): counters shared by every instance. */
  limiter: {
    consume(limit: LimitName, subject: string, rule: WindowLimit, nowMs: number): Promise<void>;
    check(limit: LimitName, subject: string, rule: WindowLimit, nowMs: number): Promise<void>;
  };
  limits: SrcLimits;
  /** Where the confirmations endpoint records what it receives (none: those routes are 404). */
  confirmations?: SandboxConfirmationLedger;
  now: () => number;
}

/** Who calls the network, as far as it can tell: the caller's IP address (API Gateway's sourceIp). */
export interface SrcClient {
  ip: string;
  /** The caller's Idempotency-Key header, when sent (the confirmations endpoint needs it). */
  idempotencyKey?: string;
}

/** Enough for a demo, small enough to keep one session item far below DynamoDB's 400 KB. */
const MAX_ENROLLED_CARDS = 5;
const SAVE_ATTEMPTS = 3;

type LookupReply = { consumerPresent: boolean; maskedValidationChannel?: string; validationChannel?: ValidationChannel };
type ResendReply = { channel: ValidationChannel; resendsLeft: number; consumerId: string | undefined };

const accountLocked = () => new SrcError(403, 'ACCOUNT_LOCKED', 'This Click to Pay account is locked.');
const sessionLookupLimit = () => new SrcError(429, 'LOOKUP_LIMIT', 'Too many identity lookups in this session: start a new one.');

/**
 * The sandbox Click to Pay network (docs/sandbox-src-contract.md): what Visa's or
 * Mastercard's SRC system does behind their SDKs, for the sandbox SDK of the hosted page.
 * Every method takes a validated body and returns the 200 body or throws an SrcError.
 */
export class SandboxSrcNetwork {
  constructor(private readonly deps: SandboxSrcDeps) {}

  async init(body: InitBody, client: SrcClient): Promise<{ sessionId: string }> {
    // Documented trigger for "SDK initialization failure".
    if (body.dpaId.startsWith('invalid-')) throw new SrcError(400, 'INVALID_DPA', 'The DPA is not known to the network.');
    await this.deps.limiter.consume('sessions', clientBucket(client.ip), this.deps.limits.sessionsPerClient, this.deps.now());
    const sessionId = `src_${randomBytes(32).toString('base64url')}`;
    const cardBrands = [...new Set(body.cardBrands.map((brand) => brand.toUpperCase()))];
    await this.deps.sessions.create(sessionId, { dpaId: body.dpaId, cardBrands, authenticated: false, locked: false, enrolledCards: [] }, this.deps.now());
    return { sessionId };
  }

  /**
   * Limits first (docs: "Limits"): the session's own lookup count, then — only for a live,
   * unlocked session and a consumer that exists — the consumer's, so that nobody can spend a
   * consumer's budget without a session. The rule checks the session again when it writes.
   */
  async identityLookup({ sessionId, identity }: IdentityLookupBody) {
    const current = await this.session(sessionId);
    if (current.state.locked) throw accountLocked();
    if ((current.state.lookups ?? 0) >= this.deps.limits.lookupsPerSession) throw sessionLookupLimit();
    const consumer = findConsumer(identity);
    if (consumer && !consumer.locked) {
      await this.deps.limiter.consume('identity-lookups', consumer.id, this.deps.limits.lookupsPerConsumer, this.deps.now());
    }
    return this.change<LookupReply>(
      sessionId,
      (state) => {
        if (state.locked) return { state, reply: accountLocked() };
        const lookups = state.lookups ?? 0;
        if (lookups >= this.deps.limits.lookupsPerSession) return { state, reply: sessionLookupLimit() };
        const anonymous = forgetConsumer({ ...state, lookups: lookups + 1 }, { keepCards: true });
        if (!consumer) return { state: anonymous, reply: { consumerPresent: false } };
        if (consumer.locked) return { state: anonymous, reply: accountLocked() };
        const channel = channelFor(identity.type);
        return {
          state: startOtp(anonymous, consumer.id, channel, this.deps.now()),
          reply: { consumerPresent: true, maskedValidationChannel: maskedChannel(consumer, channel), validationChannel: channel },
        };
      },
      current,
    );
  }

  async resendOtp({ sessionId }: { sessionId: string }) {
    const { channel, resendsLeft, consumerId } = await this.change<ResendReply>(sessionId, (state) => {
      const { state: next, reply } = resendOtp(state, this.deps.now());
      return { state: next, reply: reply instanceof SrcError ? reply : { ...reply, consumerId: state.consumerId } };
    });
    return { maskedValidationChannel: maskedChannel(consumerById(consumerId)!, channel), resendsLeft };
  }

  /**
   * A wrong code is counted against the consumer (across all sessions) before the session
   * records it; once the consumer's window is full, every code — the right one too — is
   * refused with 429 OTP_ATTEMPTS_EXCEEDED, so the answer tells a guesser nothing.
   */
  async validateOtp({ sessionId, otp }: ValidateOtpBody) {
    const current = await this.session(sessionId);
    const consumerId = current.state.consumerId;
    const outcome = otpOutcome(current.state, otp, this.deps.now());
    const rule = this.deps.limits.otpFailuresPerConsumer;
    if (consumerId && outcome === 'wrong') await this.deps.limiter.consume('otp-failures', consumerId, rule, this.deps.now());
    if (consumerId && outcome === 'correct') await this.deps.limiter.check('otp-failures', consumerId, rule, this.deps.now());
    const state = await this.change<SrcSessionState>(
      sessionId,
      (latest) => {
        // A lookup for another consumer in between: the code (and the counter charged above)
        // belonged to the one before, so this code validates nothing.
        if (latest.consumerId !== consumerId)
          return { state: latest, reply: new SrcError(409, 'NO_PENDING_OTP', 'This code was sent to another identity: ask for a new one.') };
        const { state: next, reply } = validateOtp(latest, otp, this.deps.now());
        return { state: next, reply: reply instanceof SrcError ? reply : next };
      },
      current,
    );
    const consumer = consumerById(state.consumerId)!;
    // The documented cards-error consumer: authenticated, but its card list cannot be read.
    if (consumer.cardsUnavailable) return { consumer: maskedConsumer(consumer) };
    return { cards: this.cardsOf(state), consumer: maskedConsumer(consumer) };
  }

  async cards({ sessionId }: { sessionId: string }): Promise<{ cards: MaskedCard[] }> {
    const { state } = await this.session(sessionId);
    if (!state.authenticated) throw notAuthenticated();
    if (consumerById(state.consumerId)?.cardsUnavailable) throw new SrcError(500, 'SERVICE_ERROR', 'The cards could not be retrieved.');
    return { cards: this.cardsOf(state) };
  }

  /** A guest (no lookup, or consumer not present) may enroll too: the card belongs to this session. */
  async enrollCard(body: EnrollCardBody): Promise<{ card: MaskedCard }> {
    const [current] = await this.deps.payloadKeys.publicKeys();
    checkEnrollmentJwe(body.encryptedCard, current!.jwk);
    const card = await this.change(body.sessionId, (state) => {
      if (state.enrolledCards.length >= MAX_ENROLLED_CARDS) return { state, reply: new SrcError(400, 'INVALID_CARD', 'No more cards can be added.') };
      const enrolled = maskedEnrollment(body, state.cardBrands, new Date(this.deps.now()));
      return { state: { ...state, enrolledCards: [...state.enrolledCards, enrolled] }, reply: enrolled };
    });
    return { card: maskEnrolledCard(card) };
  }

  /** A card of the authenticated consumer, or one enrolled in this session, checked out. */
  async checkout(body: CheckoutBody): Promise<Record<string, unknown>> {
    const { state } = await this.session(body.sessionId);
    if (body.dpaId !== state.dpaId) throw new SrcError(400, 'INVALID_DPA', 'The DPA does not match this session.');
    const consumer = state.authenticated ? consumerById(state.consumerId) : undefined;
    const enrolled = state.enrolledCards.find((card) => card.srcDigitalCardId === body.srcDigitalCardId);
    if (!enrolled && !consumer) throw notAuthenticated();
    const catalogue = consumer && catalogueCards(consumer).find((card) => card.id === body.srcDigitalCardId);
    if (!enrolled && !catalogue) throw new SrcError(404, 'UNKNOWN_CARD', 'The card is not known for this consumer.');
    const [current] = await this.deps.payloadKeys.publicKeys();
    return checkoutResult({ enrolled, catalogue, consumer, recipientKey: current!.jwk, signingKeys: this.deps.signingKeys });
  }

  /** Forgets the consumer and the session's enrolled cards; the session stays usable (and locked if it was). */
  async signOut({ sessionId }: { sessionId: string }): Promise<Record<string, never>> {
    try {
      await this.change(sessionId, (state) => ({ state: forgetConsumer(state, { keepCards: false }), reply: {} }));
    } catch (error) {
      if (!(error instanceof SrcError && error.reason === 'SESSION_NOT_FOUND')) throw error;
    }
    return {};
  }

  /**
   * Mastercard's confirmations API, played (lib/adapters/network/mastercard/confirmation-body.ts): the
   * outcome of a checkout, recorded under the sender's Idempotency-Key; answered with no body.
   */
  async confirm(body: ConfirmationBody, client: SrcClient): Promise<undefined> {
    const ledger = this.confirmationLedger();
    if (!client.idempotencyKey) throw new SrcError(400, 'INVALID_REQUEST', 'An Idempotency-Key header is required.');
    await ledger.record(client.idempotencyKey, body);
    return undefined;
  }

  /** What the confirmations endpoint received for one checkout (for tests and people). */
  async confirmationsOf({ srcCorrelationId }: { srcCorrelationId: string }): Promise<ConfirmationRecord> {
    return this.confirmationLedger().read(srcCorrelationId);
  }

  private confirmationLedger(): SandboxConfirmationLedger {
    if (!this.deps.confirmations) throw new SrcError(404, 'INVALID_REQUEST', 'This network takes no confirmations.');
    return this.deps.confirmations;
  }

  private cardsOf(state: SrcSessionState): MaskedCard[] {
    const consumer = consumerById(state.consumerId);
    return [...(consumer ? catalogueCards(consumer).map(maskCatalogueCard) : []), ...state.enrolledCards.map(maskEnrolledCard)];
  }

  private async session(sessionId: string): Promise<SrcSession> {
    const session = await this.deps.sessions.get(sessionId, this.deps.now());
    if (!session) throw sessionNotFound();
    return session;
  }

  /**
   * Read → rule → conditional write, retried when a concurrent request changed the session
   * first (`justRead`: a session the caller read a moment ago, used for the first try). A
   * refusal is thrown only after its state (e.g. one attempt fewer) is saved.
   */
  private async change<T>(sessionId: string, rule: (state: SrcSessionState) => RuleResult<T>, justRead?: SrcSession): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const session = attempt === 1 && justRead ? justRead : await this.session(sessionId);
      const { state, reply } = rule(session.state);
      try {
        if (state !== session.state) await this.deps.sessions.save(sessionId, session, state, this.deps.now());
      } catch (error) {
        if (error instanceof StoreConflictError && attempt < SAVE_ATTEMPTS) continue;
        if (error instanceof StoreConflictError) throw sessionNotFound(); // expired meanwhile, or hopelessly contended
        throw error;
      }
      if (reply instanceof SrcError) throw reply;
      return reply;
    }
  }
}

function forgetConsumer(state: SrcSessionState, options: { keepCards: boolean }): SrcSessionState {
  const { consumerId: _consumer, otp: _otp, ...rest } = state;
  return { ...rest, authenticated: false, enrolledCards: options.keepCards ? state.enrolledCards : [] };
}
