import { UnauthenticatedError } from '../errors.js';
import type { AccessTokenVerifier } from './access-token.js';
import { SESSION_PERMISSIONS, type Principal } from './principal.js';
import { hashSessionToken, isSessionTokenShaped } from './session-token.js';
import type { HostedSession } from '../domain/hosted-session.js';
import type { OrderSnapshot, PaymentReadAhead } from '../ports/order-store.js';

export interface SessionLookup {
  findByTokenHash(tokenHash: string): Promise<HostedSession | undefined>;
  /** The session plus the order and payment a payment route names, in one read. */
  findWithPayment(tokenHash: string, ids: PaymentIdsInPath): Promise<{ session: HostedSession | undefined; order: OrderSnapshot | undefined }>;
}

export interface PaymentIdsInPath {
  orderRef: string;
  paymentRef: string;
}

export interface Authenticated {
  principal: Principal;
  /** Read beside a hosted session (SessionLookup.findWithPayment); absent for access tokens. */
  readAhead?: PaymentReadAhead;
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const MAX_HEADER_LENGTH = 8192;

/** Turns an `Authorization` header into a principal, for both token kinds of SPEC §1. */
export class Authenticator {
  constructor(
    private readonly accessTokens: AccessTokenVerifier,
    private readonly sessions: SessionLookup,
    private readonly now: () => number,
  ) {}

  async authenticate(header: string | undefined): Promise<Principal> {
    const token = bearerToken(header);
    if (isSessionTokenShaped(token)) return this.sessionPrincipal(await this.sessions.findByTokenHash(hashSessionToken(token)));
    return this.accessTokens.verify(token);
  }

  /**
   * `authenticate` for a route that names a payment: a hosted session's lookup also reads that
   * order and payment (one BatchGetItem instead of two reads in a row, docs/benchmarks.md "Benchmark"), and
   * hands them on for the use case. An access token is verified as ever, with nothing read.
   */
  async authenticateReadingAhead(header: string | undefined, ids: PaymentIdsInPath): Promise<Authenticated> {
    const token = bearerToken(header);
    if (!isSessionTokenShaped(token)) return { principal: await this.accessTokens.verify(token) };
    const { session, order } = await this.sessions.findWithPayment(hashSessionToken(token), ids);
    return { principal: this.sessionPrincipal(session), readAhead: { ...ids, found: order } };
  }

  private sessionPrincipal(session: HostedSession | undefined): Principal {
    // DynamoDB TTL deletes lazily: an expired item still present is treated as absent.
    if (!session || session.expiresAt * 1000 <= this.now()) {
      throw new UnauthenticatedError('The hosted session is unknown or has expired.');
    }
    return {
      kind: 'session',
      tenantRef: session.tenantRef,
      merchantRef: session.merchantRef,
      outletId: session.outletId,
      orderRef: session.orderRef,
      expiresAt: session.expiresAt,
      permissions: SESSION_PERMISSIONS,
    };
  }
}

function bearerToken(header: string | undefined): string {
  if (!header) throw new UnauthenticatedError('A bearer token is required.');
  const match = header.length <= MAX_HEADER_LENGTH ? BEARER.exec(header) : null;
  if (!match?.[1]) throw new UnauthenticatedError('The Authorization header must be "Bearer <token>".');
  return match[1];
}
