/**
 * Shared fixtures for the checkout crypto tests: the real vectors (SPEC §4.3), resolvers,
 * a frozen clock, and helpers to forge tokens with keys generated in the test.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CompactSign, importJWK, type JWK } from 'jose';
import type { KeyResolver } from '../../lib/core/checkout/jws.js';
import { withLowS } from '../../lib/core/checkout/ecdsa-low-s.js';
import { localUnwrapper } from '../support/local-unwrapper.js';
import { CheckoutSignatureInvalidError } from '../../lib/core/errors.js';

export interface CheckoutVector {
  name: string;
  sdkResult: Record<string, unknown> & { checkoutResponse: string };
  jwsPayload: Record<string, unknown> & { encryptedPayload: string; assuranceData: { eci: string } };
  decryptedPayload: {
    token: { paymentToken: string };
    dynamicData: { dynamicDataValue: string; dynamicDataType: string }[];
    eci: string;
  } & Record<string, unknown>;
}

export interface CheckoutVectors {
  iat: number;
  networkJwks: { keys: JWK[] };
  recipientKid: string;
  recipientPrivateJwk: JWK;
  cases: CheckoutVector[];
}

/** A verbatim copy of the SPEC's shared/fixtures/checkout-vectors.json. */
const fixturePath = new URL('../fixtures/checkout-vectors.json', import.meta.url);

export const vectors = JSON.parse(readFileSync(fixturePath, 'utf8')) as CheckoutVectors;

/** One minute after the vectors were issued; `maxAgeSeconds` is the SPEC default. */
export const NOW_MS = vectors.iat * 1000 + 60_000;
export const now = () => NOW_MS;
export const NOW_S = NOW_MS / 1000;
export const MAX_AGE = 900;

export function unknownKid(): never {
  throw new CheckoutSignatureInvalidError(undefined, { cause: new Error('unknown kid') });
}

/**
 * Resolves by `kid` only, importing the JWK for the header's (already allow-listed) alg. A key
 * whose type does not fit that alg (an EC key's kid under RS256) is no key for it, as in
 * lib/adapters/jwks/jwks-source.ts: unknown, a 422 — not jose's import error.
 */
export function jwksResolver(keys: JWK[]): KeyResolver {
  return async ({ alg, kid }) => {
    const jwk = keys.find((k) => k.kid === kid);
    if (!jwk) unknownKid();
    return (await importJWK(jwk, alg).catch(() => unknownKid())) as CryptoKey;
  };
}

export const networkResolver = jwksResolver(vectors.networkJwks.keys);

export const recipientKey: KeyObject = createPrivateKey({ key: vectors.recipientPrivateJwk as never, format: 'jwk' });
export const recipientUnwrapper = localUnwrapper(new Map([[vectors.recipientKid, recipientKey]]));

export const b64u = (value: string | Uint8Array) => Buffer.from(value).toString('base64url');
export const json = (value: unknown) => b64u(JSON.stringify(value));

/** Flips one bit in the middle of a base64url segment's bytes; the result is canonical base64url. */
export function flipSegment(compact: string, index: number): string {
  const segments = compact.split('.');
  const bytes = Buffer.from(segments[index] as string, 'base64url');
  const middle = bytes.length >> 1;
  bytes[middle] = (bytes[middle] ?? 0) ^ 0x01;
  segments[index] = bytes.toString('base64url');
  return segments.join('.');
}

/**
 * Signs any header and payload with jose, so negative cases are otherwise valid tokens.
 * ES256 signatures come out low-S, as the service requires (jose leaves half of them high-S).
 */
export async function signJws(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  key: CryptoKey | Uint8Array,
  critNames: string[] = [],
): Promise<string> {
  const crit = Object.fromEntries(critNames.map((name) => [name, true]));
  const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader(header as never).sign(key, { crit });
  return header.alg === 'ES256' ? withLowS(jws) : jws;
}

/** Every message reachable from an error: detail, field issues and the whole cause chain. */
export function allErrorText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 10; depth += 1) {
    if (current instanceof Error) {
      parts.push(current.message, String(current), JSON.stringify(current));
      current = current.cause;
    } else {
      parts.push(String(current));
      current = undefined;
    }
  }
  return parts.join('\n');
}

/** Runs a synchronous call expected to throw and returns the error. */
export function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

/** Awaits a promise or a call expected to fail and returns the error. */
export async function failure(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}
