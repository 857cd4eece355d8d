/**
 * Property-based tests (issue 7, "Tests that must exist"): whatever string arrives as a JWS
 * or JWE, and whatever a network-signed payload or decrypted plaintext contains, the
 * checkout crypto answers with one of the SPEC's 422s (§2) or a result, never a TypeError
 * or anything that would become a 500. Mutated copies of the real vectors never verify or
 * decrypt (SPEC §4.3 step 2: no byte-different copy without the network's key).
 * A few hundred runs per property, so the file runs in seconds.
 */
import { generateKeyPair, exportJWK } from 'jose';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { decryptCheckoutJwe, type ContentKeyUnwrapper } from '../../lib/core/checkout/jwe.js';
import { verifyCheckoutJws, type KeyResolver } from '../../lib/core/checkout/jws.js';
import { parseDecryptedPayload } from '../../lib/core/checkout/payment-data.js';
import { CheckoutDecryptionFailedError, CheckoutExpiredError, CheckoutPayloadInvalidError, CheckoutSignatureInvalidError } from '../../lib/core/errors.js';
import { allErrorText, json, jwksResolver, MAX_AGE, networkResolver, now, NOW_S, recipientUnwrapper, signJws, vectors } from './checkout-fixtures.js';
import type { DomainError } from '../../lib/core/errors.js';
import { statusOf } from '../../lib/http/error-status.js';

type ErrorClass = abstract new (...args: never[]) => Error;
const JWS_ERRORS: ErrorClass[] = [CheckoutSignatureInvalidError, CheckoutExpiredError, CheckoutPayloadInvalidError];
const JWE_ERRORS: ErrorClass[] = [CheckoutDecryptionFailedError];
const PAYLOAD_ERRORS: ErrorClass[] = [CheckoutPayloadInvalidError];
const options = { maxAgeSeconds: MAX_AGE, now };
const RUNS = { numRuns: 300 };
const SIGNING_RUNS = { numRuns: 150 };

/** The settled outcome of a call: its value, or the error it failed with. */
async function settle<T>(run: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error };
  }
}

function expectOnly(error: unknown, allowed: ErrorClass[]): void {
  if (!allowed.some((errorClass) => error instanceof errorClass)) {
    throw new Error(`unexpected failure: ${String(error)}`, { cause: error });
  }
  expect(statusOf(error as DomainError).status).toBe(422);
}

// ---------------------------------------------------------------------------------------
// Arbitraries
// ---------------------------------------------------------------------------------------

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Characters a mutation may bring in: the alphabet, separators, padding, whitespace, near-misses. */
const MUTATION_CHARS = [...BASE64URL, '.', '=', ' ', '\n', '\r', '\t', '+', '/', '\u0000', 'é', '\uD800'];
const mutationChar = fc.constantFrom(...MUTATION_CHARS);

/** Strings that look like compact serializations (dots, base64url, noise) and arbitrary text. */
const compactLike = fc.oneof(
  fc.string({ unit: mutationChar, maxLength: 300 }),
  fc.array(fc.string({ unit: fc.constantFrom(...BASE64URL), maxLength: 80 }), { minLength: 1, maxLength: 7 }).map((s) => s.join('.')),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

type Mutation =
  | { kind: 'replace' | 'insert'; at: number; char: string }
  | { kind: 'delete'; at: number }
  | { kind: 'repad'; segment: number; padding: string }
  | { kind: 'header'; header: Record<string, unknown> }
  | { kind: 'reformat'; indent: number };

const jsonish = fc.jsonValue({ maxDepth: 2 });

function mutationArb(headerArb: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Mutation> {
  return fc.oneof(
    fc.record({ kind: fc.constantFrom('replace' as const, 'insert' as const), at: fc.nat(), char: mutationChar }),
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('repad' as const), segment: fc.nat(), padding: fc.constantFrom('=', '==', '===', '\n', ' ') }),
    fc.record({ kind: fc.constant('header' as const), header: headerArb }),
    fc.record({ kind: fc.constant('reformat' as const), indent: fc.integer({ min: 1, max: 3 }) }),
  );
}

function mutate(compact: string, mutation: Mutation): string {
  const at = 'at' in mutation ? mutation.at % (compact.length + (mutation.kind === 'insert' ? 1 : 0)) : 0;
  const segments = compact.split('.');
  switch (mutation.kind) {
    case 'replace':
      return compact.slice(0, at) + mutation.char + compact.slice(at + 1);
    case 'insert':
      return compact.slice(0, at) + mutation.char + compact.slice(at);
    case 'delete':
      return compact.slice(0, at) + compact.slice(at + 1);
    case 'repad': {
      const index = mutation.segment % segments.length;
      segments[index] = `${segments[index]}${mutation.padding}`;
      return segments.join('.');
    }
    case 'header':
      segments[0] = json(mutation.header);
      return segments.join('.');
    case 'reformat': {
      // The same header, other bytes (whitespace): semantically equal, still a different message.
      const header: unknown = safeJson(Buffer.from(segments[0] ?? '', 'base64url').toString());
      segments[0] = Buffer.from(JSON.stringify(header, null, mutation.indent) ?? 'null').toString('base64url');
      return segments.join('.');
    }
  }
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const applyAll = (compact: string, mutations: Mutation[]) => mutations.reduce(mutate, compact);

const jwsHeaderArb = fc.record(
  {
    alg: fc.oneof(fc.constantFrom('RS256', 'PS256', 'ES256', 'HS256', 'none', 'RS512', 'ES256K'), jsonish),
    kid: fc.oneof(fc.constantFrom(...vectors.networkJwks.keys.map((k) => String(k.kid))), jsonish),
    iat: fc.oneof(fc.constant(vectors.iat), fc.double(), jsonish),
    jti: jsonish,
    crit: fc.array(fc.string(), { maxLength: 2 }),
    b64: fc.boolean(),
    jwk: jsonish,
    jku: fc.webUrl(),
  },
  { requiredKeys: [] },
);

const jweHeaderArb = fc.record(
  {
    alg: fc.oneof(fc.constantFrom('RSA-OAEP-256', 'RSA-OAEP', 'RSA1_5', 'dir', 'A128KW', 'ECDH-ES'), jsonish),
    enc: fc.oneof(fc.constantFrom('A128GCM', 'A256GCM', 'A128CBC-HS256', 'A192GCM', 'A256CBC-HS512'), jsonish),
    kid: fc.oneof(fc.constant(vectors.recipientKid), jsonish),
    zip: fc.constantFrom('DEF', 'GZIP'),
    crit: fc.array(fc.string(), { maxLength: 2 }),
    cty: jsonish,
  },
  { requiredKeys: [] },
);

// ---------------------------------------------------------------------------------------
// JWS
// ---------------------------------------------------------------------------------------

describe('verifyCheckoutJws properties', () => {
  const jwsVectors = vectors.cases.map((c) => c.sdkResult.checkoutResponse);

  it('arbitrary strings: only the SPEC 422s', async () => {
    await fc.assert(
      fc.asyncProperty(compactLike, async (compact) => {
        const outcome = await settle(() => verifyCheckoutJws(compact, networkResolver, options));
        if (!outcome.ok) expectOnly(outcome.error, JWS_ERRORS);
      }),
      RUNS,
    );
  });

  it('mutated real vectors (chars, padding, headers) never verify and fail only with the SPEC 422s', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...jwsVectors), fc.array(mutationArb(jwsHeaderArb), { minLength: 1, maxLength: 3 }), async (original, mutations) => {
        const mutated = applyAll(original, mutations);
        fc.pre(mutated !== original);
        const outcome = await settle(() => verifyCheckoutJws(mutated, networkResolver, options));
        expect(outcome.ok).toBe(false);
        if (!outcome.ok) expectOnly(outcome.error, JWS_ERRORS);
      }),
      RUNS,
    );
  });

  it('the originals still verify', async () => {
    for (const compact of jwsVectors) await expect(verifyCheckoutJws(compact, networkResolver, options)).resolves.toBeDefined();
  });

  describe('validly signed, arbitrary headers and payloads', () => {
    let privateKey: CryptoKey;
    let resolver: KeyResolver;
    beforeAll(async () => {
      const pair = await generateKeyPair('ES256');
      privateKey = pair.privateKey;
      resolver = jwksResolver([{ ...(await exportJWK(pair.publicKey)), kid: 'ec' }]);
    });

    const claimValue = fc.oneof(jsonish, fc.string(), fc.constant(undefined));
    const payloadArb = fc.oneof(
      fc.record(
        {
          srcCorrelationId: claimValue,
          encryptedPayload: claimValue,
          iat: fc.oneof(fc.constant(NOW_S - 5), fc.double(), fc.integer(), jsonish),
          jti: claimValue,
          maskedCard: claimValue,
          assuranceData: fc.oneof(jsonish, fc.record({ eci: claimValue }, { requiredKeys: [] })),
          srciTransactionId: claimValue,
        },
        { requiredKeys: [] },
      ),
      fc.dictionary(fc.string({ maxLength: 12 }), jsonish, { maxKeys: 6 }),
    );
    const headerArb = fc.record(
      {
        iat: fc.oneof(fc.constant(NOW_S - 5), fc.double(), jsonish),
        jti: claimValue,
        typ: jsonish,
        extra: jsonish,
      },
      { requiredKeys: [] },
    );

    it('resolve, or fail with the SPEC 422s (never a TypeError from odd claims)', async () => {
      await fc.assert(
        fc.asyncProperty(headerArb, payloadArb, async (extraHeader, payload) => {
          const header = JSON.parse(JSON.stringify({ ...extraHeader, alg: 'ES256', kid: 'ec' })) as Record<string, unknown>;
          const clean = JSON.parse(JSON.stringify(payload)) as Record<string, unknown>;
          const compact = await signJws(header, clean, privateKey);
          const outcome = await settle(() => verifyCheckoutJws(compact, resolver, options));
          if (!outcome.ok) expectOnly(outcome.error, JWS_ERRORS);
        }),
        SIGNING_RUNS,
      );
    });
  });
});

// ---------------------------------------------------------------------------------------
// JWE
// ---------------------------------------------------------------------------------------

describe('decryptCheckoutJwe properties (fake unwrapper)', () => {
  const jweVectors = vectors.cases.map((c) => c.jwsPayload.encryptedPayload);
  /** The real CEK of each vector, by encrypted-key segment, so mutations reach the content layer. */
  const realCeks = new Map<string, Uint8Array>();

  beforeAll(async () => {
    for (const compact of jweVectors) {
      const [header, encryptedKey] = compact.split('.') as [string, string];
      const { alg, kid } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg: 'RSA-OAEP' | 'RSA-OAEP-256'; kid: string };
      realCeks.set(encryptedKey, await recipientUnwrapper.unwrap(kid, alg, Buffer.from(encryptedKey, 'base64url')));
    }
  });

  /**
   * Returns the real CEK for an untouched encrypted key (a copy: the caller wipes it); for
   * anything else, what a KMS or a buggy port might do, chosen by the input's first byte.
   */
  const fakeUnwrapper: ContentKeyUnwrapper = {
    async unwrap(_kid, _alg, encryptedKey) {
      const real = realCeks.get(Buffer.from(encryptedKey).toString('base64url'));
      if (real) return new Uint8Array(real);
      switch ((encryptedKey[0] ?? 0) % 5) {
        case 0:
          throw new Error('InvalidCiphertextException');
        case 1:
          throw new CheckoutDecryptionFailedError();
        case 2:
          return new Uint8Array(encryptedKey.length % 48);
        case 3:
          return undefined as unknown as Uint8Array; // a port that breaks its contract
        default:
          return new Uint8Array(32).fill(encryptedKey.length);
      }
    },
  };

  it('arbitrary strings: only CHECKOUT_DECRYPTION_FAILED', async () => {
    await fc.assert(
      fc.asyncProperty(compactLike, async (compact) => {
        const outcome = await settle(() => decryptCheckoutJwe(compact, fakeUnwrapper));
        if (!outcome.ok) expectOnly(outcome.error, JWE_ERRORS);
      }),
      RUNS,
    );
  });

  it('mutated real vectors never decrypt and fail only with CHECKOUT_DECRYPTION_FAILED', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...jweVectors), fc.array(mutationArb(jweHeaderArb), { minLength: 1, maxLength: 3 }), async (original, mutations) => {
        const mutated = applyAll(original, mutations);
        fc.pre(mutated !== original);
        const outcome = await settle(() => decryptCheckoutJwe(mutated, fakeUnwrapper));
        expect(outcome.ok).toBe(false);
        if (!outcome.ok) expectOnly(outcome.error, JWE_ERRORS);
      }),
      RUNS,
    );
  });

  it('the originals decrypt with the fake unwrapper', async () => {
    for (const compact of jweVectors) await expect(decryptCheckoutJwe(compact, fakeUnwrapper)).resolves.toBeInstanceOf(Uint8Array);
  });
});

// ---------------------------------------------------------------------------------------
// Decrypted payload
// ---------------------------------------------------------------------------------------

describe('parseDecryptedPayload properties', () => {
  const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value) ?? '');
  const tokens = vectors.cases.map((c) => c.decryptedPayload.token.paymentToken);

  const expectCredentialOrPayloadInvalid = (plaintext: Uint8Array) => {
    try {
      const credential = parseDecryptedPayload(plaintext);
      expect(credential.number).toMatch(/^\d{12,19}$/);
      expect(credential.expiryMonth).toMatch(/^(0[1-9]|1[0-2])$/);
      expect(credential.expiryYear).toMatch(/^\d{4}$/);
      expect(credential.cryptogram.length).toBeGreaterThan(0);
    } catch (error) {
      expectOnly(error, PAYLOAD_ERRORS);
      const text = allErrorText(error);
      for (const token of tokens) expect(text).not.toContain(token); // no card data in errors
    }
  };

  it('arbitrary bytes and arbitrary JSON: a credential or CHECKOUT_PAYLOAD_INVALID', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 200 }), jsonish.map(encode), fc.anything().map(encode)), (plaintext) => {
        expectCredentialOrPayloadInvalid(plaintext);
      }),
      RUNS,
    );
  });

  type Json = Record<string, unknown>;
  /** One edit of a valid payload: set or delete a key at the top level or one level down. */
  const editArb = fc.record({
    path: fc.oneof(
      fc.constantFrom('token', 'card', 'dynamicData', 'eci', 'paymentAccountReference', 'billingAddress').map((k) => [k]),
      fc.constantFrom(
        ['token', 'paymentToken'],
        ['token', 'tokenExpirationMonth'],
        ['token', 'tokenExpirationYear'],
        ['dynamicData', '0'],
        ['dynamicData', 'dynamicDataValue'],
        ['card', 'primaryAccountNumber'],
      ),
    ),
    value: fc.option(fc.oneof(jsonish, fc.constantFrom('4111111111111111', '13', '0', '2099', '99', '')), { nil: undefined }),
  });

  function applyEdit(payload: Json, { path, value }: { path: readonly string[]; value: unknown }): Json {
    const copy = structuredClone(payload);
    let target: unknown = copy;
    for (const key of path.slice(0, -1)) {
      const next = (target as Json)[key];
      if (next === null || typeof next !== 'object') return copy;
      target = next;
    }
    const last = path.at(-1) as string;
    if (value === undefined) delete (target as Json)[last];
    else (target as Json)[last] = value;
    return copy;
  }

  it('edited real payloads: a credential or CHECKOUT_PAYLOAD_INVALID, never card data in the error', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...vectors.cases.map((c) => c.decryptedPayload as unknown as Json)),
        fc.array(editArb, { minLength: 1, maxLength: 4 }),
        (payload, edits) => {
          expectCredentialOrPayloadInvalid(encode(edits.reduce(applyEdit, payload)));
        },
      ),
      RUNS,
    );
  });
});
