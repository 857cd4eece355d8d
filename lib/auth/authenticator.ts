import { UnauthenticatedError } from '../errors.js';
import type { AccessTokenVerifier } from './access-token.js';
import { SESSION_PERMISSIONS, type Principal } from './principal.js';
import { hashSessionToken, isSessionTokenShaped } from './session-token.js';
import type { HostedSession } from '../domain/hosted-session.js';

export interface SessionLookup {
  findByTokenHash(tokenHash: string): Promise<HostedSession | undefined>;
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const MAX_HEADER_LENGTH = 8192;

/** Turns an `Authorization` header into a principal, for both token kinds of SPEC §1. */
export class Authenticator {
  constructor(
    private readonly accessTokens: AccessTokenVerifier,
    private readonly sessions: SessionLookup,
    private readonly now: () => number = Date.now,
  ) {}

  async authenticate(header: string | undefined): Promise<Principal> {
    if (!header) throw new UnauthenticatedError('A bearer token is required.');
    const match = header.length <= MAX_HEADER_LENGTH ? BEARER.exec(header) : null;
    if (!match?.[1]) throw new UnauthenticatedError('The Authorization header must be "Bearer <token>".');
    const token = match[1];
    if (isSessionTokenShaped(token)) return this.sessionPrincipal(token);
    return this.accessTokens.verify(token);
  }

  private async sessionPrincipal(token: string): Promise<Principal> {
    const session = await this.sessions.findByTokenHash(hashSessionToken(token));
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
