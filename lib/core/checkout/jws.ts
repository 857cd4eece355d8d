/**
 * Verification of the network-signed checkout response (SPEC §4.3 steps 2–3). Every guard
 * runs before any key is resolved, so a token with a forbidden `alg` or header never
 * reaches the key store; the key comes only from `resolveKey` by `kid`.
 */
import type { KeyObject } from 'node:crypto';
import { compactVerify } from 'jose';
import * as z from 'zod';
import { CheckoutExpiredError, CheckoutPayloadInvalidError, CheckoutSignatureInvalidError } from '../errors.js';
import { decodeCanonicalBase64url } from './base64url.js';
import { isLowS } from './ecdsa-low-s.js';
import { MAX_JWS_LENGTH } from './sdk-result.js';

export type CheckoutJwsAlgorithm = 'RS256' | 'PS256' | 'ES256';
const ALLOWED_ALGORITHMS: ReadonlySet<string> = new Set<CheckoutJwsAlgorithm>(['RS256', 'PS256', 'ES256']);
/** Tolerated clock difference with the network: an `iat` or `nbf` ahead, an `exp` just passed. */
const CLOCK_SKEW_SECONDS = 30;

export type KeyResolver = (header: { alg: string; kid: string }) => Promise<CryptoKey | KeyObject | Uint8Array>;

export interface VerifyCheckoutOptions {
  maxAgeSeconds: number;
  /** Epoch milliseconds; injectable so tests can freeze the clock. */
  now?: () => number;
}

/** Display-only masked data: lenient types, because rejecting a payment over a label is worse. */
const maskedText = z.union([z.string().max(256), z.number()]).optional();
const maskedCardSchema = z.looseObject({
  srcDigitalCardId: maskedText,
  panBin: maskedText,
  panLastFour: maskedText,
  tokenLastFour: maskedText,
  panExpirationMonth: maskedText,
  panExpirationYear: maskedText,
  paymentAccountReference: maskedText,
});

/** A short code or id from the network: text or number, bounded, never interpreted beyond `eci`. */
const assuranceText = z.union([z.string().max(128), z.number()]).optional();

/**
 * SPEC §4.3 step 6: `assuranceData` comes in two shapes, both accepted (and anything a network
 * adds beside them): the 3DS results `{eci, verificationData: [{methodResults: {transStatus,
 * dsTransId, acsTransId}}]}`, and the card verification `{eci, cardVerificationResults,
 * cardVerificationMethod, cardVerificationEntity}`. Only `eci` steers anything (the 3DS
 * decision); the rest is typed so that a malformed field is refused rather than trusted.
 */
export const assuranceDataSchema = z.looseObject({
  eci: z.string().optional(),
  verificationData: z
    .array(
      z.looseObject({
        methodResults: z.looseObject({ transStatus: assuranceText, dsTransId: assuranceText, acsTransId: assuranceText }).optional(),
      }),
    )
    .max(16)
    .optional(),
  cardVerificationResults: assuranceText,
  cardVerificationMethod: assuranceText,
  cardVerificationEntity: assuranceText,
});

/** SPEC §4.3 step 3. Ids are bounded because they become replay-guard keys. */
export const checkoutJwsPayloadSchema = z.looseObject({
  srcCorrelationId: z.string().min(1).max(256),
  srciTransactionId: z.string().max(256).optional(),
  maskedCard: maskedCardSchema.optional(),
  maskedConsumer: z.looseObject({}).optional(),
  assuranceData: assuranceDataSchema.optional(),
  encryptedPayload: z.string().min(1),
  iat: z.number().optional(),
});

export type CheckoutJwsPayload = z.output<typeof checkoutJwsPayloadSchema>;

export interface VerifiedCheckout {
  kid: string;
  alg: string;
  jti?: string;
  iat: number;
  payload: CheckoutJwsPayload;
}

export async function verifyCheckoutJws(compact: string, resolveKey: KeyResolver, options: VerifyCheckoutOptions): Promise<VerifiedCheckout> {
  const { header, payload: payloadBytes, alg, kid } = await verifyCheckoutSignature(compact, resolveKey);

  const claims = parseJsonObject(payloadBytes);
  if (!claims) throw payloadInvalid('payload is not a JSON object');
  const nowSeconds = (options.now ?? Date.now)() / 1000;
  const iat = checkFreshness([header.iat, claims.iat], nowSeconds, options.maxAgeSeconds);
  checkValidityWindow(header, claims, nowSeconds);

  const parsed = checkoutJwsPayloadSchema.safeParse(claims);
  if (!parsed.success) throw payloadInvalid(`payload schema: ${describeIssues(parsed.error.issues)}`);
  const jti = [header.jti, claims.jti].find((v): v is string => typeof v === 'string' && v.length > 0);
  return { kid, alg, iat, payload: parsed.data, ...(jti === undefined ? {} : { jti }) };
}

export interface VerifiedSignature {
  header: Record<string, unknown>;
  /** The signed payload bytes, not yet interpreted. */
  payload: Uint8Array;
  alg: CheckoutJwsAlgorithm;
  kid: string;
}

/**
 * The signature layer of step 2 alone: structure, header policy, key by `kid`, signature.
 * Nothing about the payload is read, so published JOSE vectors (RFC 7520) can be checked
 * against exactly the code a checkout response goes through; `verifyCheckoutJws` adds the
 * time claims and the payload schema.
 */
export async function verifyCheckoutSignature(compact: string, resolveKey: KeyResolver): Promise<VerifiedSignature> {
  const { header, signature } = readStructure(compact);
  const alg = header.alg;
  if (typeof alg !== 'string' || !ALLOWED_ALGORITHMS.has(alg)) throw invalid('alg not allowed');
  const kid = header.kid;
  if (typeof kid !== 'string' || kid.length === 0) throw invalid('kid missing');
  if ('crit' in header) throw invalid('crit header present');
  if ('b64' in header) throw invalid('b64 header present'); // RFC 7797 unencoded payloads: never used here
  if (alg === 'ES256' && !isLowS(signature)) throw invalid('ES256 signature is not low-S');
  // `jku`, `x5u`, `jwk` and `x5c` are deliberately not read: trusting a key the token names
  // would let anyone sign. Errors from the resolver (unknown kid → 422, JWKS outage → 503)
  // are the resolver's to define, so they propagate unchanged.
  const key = await resolveKey({ alg, kid });

  try {
    // `algorithms` pinned to the header's (already allow-listed) alg: jose rejects any other.
    const { payload } = await compactVerify(compact, key, { algorithms: [alg] });
    return { header, payload, alg: alg as CheckoutJwsAlgorithm, kid };
  } catch (cause) {
    throw invalid('signature verification failed', cause);
  }
}

/**
 * Structure and size only; the signature is checked by jose afterwards. Every segment must
 * be canonical base64url (SPEC §4.3 step 2): jose's decoder tolerates padding, whitespace
 * and set unused bits, each of which would give a byte-different copy that still verifies.
 */
function readStructure(compact: string): { header: Record<string, unknown>; signature: Uint8Array } {
  if (typeof compact !== 'string') throw invalid('JWS is not a string');
  if (compact.length > MAX_JWS_LENGTH) throw invalid('JWS over size limit');
  const segments = compact.split('.');
  if (segments.length !== 3) throw invalid(`JWS has ${segments.length} segments, expected 3`);
  // An empty segment decodes to no bytes: an empty signature is refused with its `alg`.
  const [headerBytes, payloadBytes, signature] = segments.map(decodeCanonicalBase64url);
  if (!headerBytes) throw invalid('protected header is not canonical base64url');
  if (!payloadBytes) throw invalid('payload is not canonical base64url');
  if (!signature) throw invalid('signature is not canonical base64url');
  const header = parseJsonObject(headerBytes);
  if (!header) throw invalid('protected header is not a JSON object');
  return { header, signature };
}

/**
 * Every `iat` present (header and payload are both integrity protected) must be fresh, so
 * a mismatch between the two cannot be used to pick the friendlier one. No `iat` at all
 * means freshness cannot be shown: reported as expired, like a stale one.
 */
function checkFreshness(candidates: unknown[], nowSeconds: number, maxAgeSeconds: number): number {
  const present = candidates.filter((v) => v !== undefined);
  if (present.length === 0) throw expired('iat missing');
  for (const iat of present) {
    if (typeof iat !== 'number' || !Number.isFinite(iat)) throw expired('iat is not a number');
    if (nowSeconds - iat > maxAgeSeconds) throw expired('iat older than the maximum age');
    if (iat > nowSeconds + CLOCK_SKEW_SECONDS) throw expired('iat in the future');
  }
  return present[0] as number;
}

/**
 * SPEC §4.3 step 2: the network's own validity is never stretched. Every `exp` and `nbf`
 * present, in the protected header and in the payload (both are signed, so neither may be
 * picked over the other), must hold within the clock skew, as RFC 7519 §4.1.4–4.1.5 and
 * jose's `jwtVerify` read them: refused from `exp` + skew on, and while `nbf` − skew is still
 * ahead. Neither claim is required: `iat` already bounds the age.
 *
 * Decision: a present `exp` or `nbf` that is not a NumericDate (a finite JSON number; a
 * string, `null` or anything else) is refused as expired, like a non-numeric `iat`: a window
 * that cannot be read cannot be shown to include now, and a network sending one is broken.
 */
function checkValidityWindow(header: Record<string, unknown>, claims: Record<string, unknown>, nowSeconds: number): void {
  for (const [where, source] of [
    ['header', header],
    ['payload', claims],
  ] as const) {
    const { exp, nbf } = source;
    if (exp !== undefined) {
      if (typeof exp !== 'number' || !Number.isFinite(exp)) throw expired(`${where} exp is not a number`);
      if (nowSeconds >= exp + CLOCK_SKEW_SECONDS) throw expired(`${where} exp has passed`);
    }
    if (nbf !== undefined) {
      if (typeof nbf !== 'number' || !Number.isFinite(nbf)) throw expired(`${where} nbf is not a number`);
      if (nbf > nowSeconds + CLOCK_SKEW_SECONDS) throw expired(`${where} nbf is in the future`);
    }
  }
}

function parseJsonObject(bytes: Uint8Array): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Paths and issue codes only: never values, which could be card data. */
const describeIssues = (issues: readonly { path: PropertyKey[]; code: string }[]) =>
  issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.code}`).join('; ');

const invalid = (reason: string, cause?: unknown) =>
  new CheckoutSignatureInvalidError(undefined, { cause: new Error(reason, cause === undefined ? undefined : { cause }) });
const expired = (reason: string) => new CheckoutExpiredError(undefined, { cause: new Error(reason) });
const payloadInvalid = (reason: string) => new CheckoutPayloadInvalidError('The checkout response payload is invalid.', { cause: new Error(reason) });
