import { createHash, randomBytes } from 'node:crypto';

/**
 * Hosted-session tokens: 256 random bits, base64url, with a recognisable prefix so that a
 * leaked one is easy to spot and never mistaken for a JWT. Only the SHA-256 is stored.
 */
export const SESSION_TOKEN_PREFIX = 'hs_';
const SESSION_TOKEN_SHAPE = /^hs_[A-Za-z0-9_-]{43}$/;

export function newSessionToken(): string {
  return SESSION_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

export function isSessionTokenShaped(token: string): boolean {
  return SESSION_TOKEN_SHAPE.test(token);
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
