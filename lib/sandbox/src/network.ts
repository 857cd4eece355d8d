import { randomBytes } from 'node:crypto';
import type { PayloadPublicKey } from '../../keys/payload-key-vault.js';
import { ConditionFailed } from '../../repositories/dynamo.js';
import { channelFor, consumerById, findConsumer, maskedChannel, maskedConsumer, type ValidationChannel } from './consumers.js';
import { catalogueCards, maskCatalogueCard, maskEnrolledCard, type MaskedCard } from './cards.js';
import { checkoutResult } from './checkout.js';
import { checkEnrollmentJwe, maskedEnrollment } from './enrollment.js';
import { notAuthenticated, sessionNotFound, SrcError } from './errors.js';
import { resendOtp, startOtp, validateOtp, type RuleResult } from './otp.js';
import type { CheckoutBody, EnrollCardBody, IdentityLookupBody, InitBody, ValidateOtpBody } from './schemas.js';
import type { NetworkSigningKeys } from './signing-keys.js';
import type { SrcSession, SrcSessionState, SrcSessionStore } from './session-store.js';

export interface SandboxSrcDeps {
  sessions: SrcSessionStore;
  signingKeys: NetworkSigningKeys;
  /** The service's payload keys (4.2), current first: enrollment JWEs and checkout payloads use [0]. */
  payloadKeys: { publicKeys(): Promise<PayloadPublicKey[]> };
  now: () => number;
}

/** Enough for a demo, small enough to keep one session item far below DynamoDB's 400 KB. */
const MAX_ENROLLED_CARDS = 5;
const SAVE_ATTEMPTS = 3;

type LookupReply = { consumerPresent: boolean; maskedValidationChannel?: string; validationChannel?: ValidationChannel };
type ResendReply = { channel: ValidationChannel; resendsLeft: number; consumerId: string | undefined };

const accountLocked = () => new SrcError(403, 'ACCOUNT_LOCKED', 'This Click to Pay account is locked.');

/**
 * The sandbox Click to Pay network (docs/sandbox-src-contract.md): what Visa's or
 * Mastercard's SRC system does behind their SDKs, for the sandbox SDK of the hosted page.
 * Every method takes a validated body and returns the 200 body or throws an SrcError.
 */
export class SandboxSrcNetwork {
  constructor(private readonly deps: SandboxSrcDeps) {}

  async init(body: InitBody): Promise<{ sessionId: string }> {
    // Documented trigger for "SDK initialization failure".
    if (body.dpaId.startsWith('invalid-')) throw new SrcError(400, 'INVALID_DPA', 'The DPA is not known to the network.');
    const sessionId = `src_${randomBytes(32).toString('base64url')}`;
    const cardBrands = [...new Set(body.cardBrands.map((brand) => brand.toUpperCase()))];
    await this.deps.sessions.create(sessionId, { dpaId: body.dpaId, cardBrands, authenticated: false, locked: false, enrolledCards: [] }, this.deps.now());
    return { sessionId };
  }

  identityLookup({ sessionId, identity }: IdentityLookupBody) {
    return this.change<LookupReply>(sessionId, (state) => {
      if (state.locked) return { state, reply: accountLocked() };
      const consumer = findConsumer(identity);
      const anonymous = forgetConsumer(state, { keepCards: true });
      if (!consumer) return { state: anonymous, reply: { consumerPresent: false } };
      if (consumer.locked) return { state: anonymous, reply: accountLocked() };
      const channel = channelFor(identity.type);
      return {
        state: startOtp(anonymous, consumer.id, channel, this.deps.now()),
        reply: { consumerPresent: true, maskedValidationChannel: maskedChannel(consumer, channel), validationChannel: channel },
      };
    });
  }

  async resendOtp({ sessionId }: { sessionId: string }) {
    const { channel, resendsLeft, consumerId } = await this.change<ResendReply>(sessionId, (state) => {
      const { state: next, reply } = resendOtp(state, this.deps.now());
      return { state: next, reply: reply instanceof SrcError ? reply : { ...reply, consumerId: state.consumerId } };
    });
    return { maskedValidationChannel: maskedChannel(consumerById(consumerId)!, channel), resendsLeft };
  }

  async validateOtp({ sessionId, otp }: ValidateOtpBody) {
    const state = await this.change<SrcSessionState>(sessionId, (current) => {
      const { state: next, reply } = validateOtp(current, otp, this.deps.now());
      return { state: next, reply: reply instanceof SrcError ? reply : next };
    });
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
   * first. A refusal is thrown only after its state (e.g. one attempt fewer) is saved.
   */
  private async change<T>(sessionId: string, rule: (state: SrcSessionState) => RuleResult<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const session = await this.session(sessionId);
      const { state, reply } = rule(session.state);
      try {
        if (state !== session.state) await this.deps.sessions.save(sessionId, session, state, this.deps.now());
      } catch (error) {
        if (error instanceof ConditionFailed && attempt < SAVE_ATTEMPTS) continue;
        if (error instanceof ConditionFailed) throw sessionNotFound(); // expired meanwhile, or hopelessly contended
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
