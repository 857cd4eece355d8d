import { compactVerify, exportJWK, exportSPKI, generateKeyPair } from 'jose';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyCheckoutJws, type KeyResolver } from '../../lib/core/checkout/jws.js';
import { checkoutRequestSchema, MAX_JWS_LENGTH, parseCheckoutRequest } from '../../lib/core/checkout/sdk-result.js';
import { CheckoutExpiredError, CheckoutPayloadInvalidError, CheckoutSignatureInvalidError, InvalidRequestError } from '../../lib/core/errors.js';
import { failure, flipSegment, json, jwksResolver, MAX_AGE, networkResolver, now, NOW_S, signJws, thrown, vectors } from './checkout-fixtures.js';
import { statusOf } from '../../lib/http/error-status.js';

const options = { maxAgeSeconds: MAX_AGE, now };

describe('parseCheckoutRequest', () => {
  const [visa, mastercard] = vectors.cases;

  it('accepts the Visa shape and hints visa', () => {
    expect(parseCheckoutRequest({ checkoutResponse: visa!.sdkResult })).toEqual({
      jws: visa!.sdkResult.checkoutResponse,
      actionCode: 'SUCCESS',
      network: 'visa',
    });
  });

  it('accepts the Mastercard shape (headers, network, extra fields) and hints mastercard', () => {
    const sdkResult = { ...mastercard!.sdkResult, idToken: 'opaque', somethingNew: { a: 1 } };
    expect(parseCheckoutRequest({ checkoutResponse: sdkResult })).toEqual({
      jws: mastercard!.sdkResult.checkoutResponse,
      actionCode: 'COMPLETE',
      network: 'mastercard',
    });
  });

  it.each(['CANCEL', 'ERROR', 'CHANGE_CARD'])('rejects action code %s as 422 and names it', (code) => {
    const error = thrown(() => parseCheckoutRequest({ checkoutResponse: { checkoutActionCode: code } }));
    expect(error).toBeInstanceOf(CheckoutPayloadInvalidError);
    expect((error as Error).message).toBe(`The checkout was not completed (action code ${code}).`);
  });

  it('rejects an unknown field next to checkoutResponse in the schema (400)', () => {
    const body = { checkoutResponse: visa!.sdkResult, extra: true };
    expect(checkoutRequestSchema.safeParse(body).success).toBe(false);
    const error = thrown(() => parseCheckoutRequest(body));
    expect(error).toBeInstanceOf(InvalidRequestError);
    // The key name is input, so it is not echoed.
    expect((error as InvalidRequestError).errors).toEqual([{ path: '', message: 'Unrecognized field' }]);
  });

  it('rejects malformed action codes, both or neither code, and a completed result without JWS', () => {
    for (const sdkResult of [
      { actionCode: 'success', checkoutResponse: 'a.b.c' },
      { actionCode: 'SUCCESS<script>', checkoutResponse: 'a.b.c' },
      { actionCode: 'SUCCESS', checkoutActionCode: 'COMPLETE', checkoutResponse: 'a.b.c' },
      { checkoutResponse: 'a.b.c' },
      { actionCode: 'SUCCESS' },
    ]) {
      expect(() => parseCheckoutRequest({ checkoutResponse: sdkResult })).toThrow(InvalidRequestError);
    }
  });

  it('maps a JWS over 32 KiB to 400 with the field path', () => {
    const oversize = { actionCode: 'SUCCESS', checkoutResponse: 'a'.repeat(MAX_JWS_LENGTH + 1) };
    const error = thrown(() => parseCheckoutRequest({ checkoutResponse: oversize }));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).errors?.map((e) => e.path)).toEqual(['checkoutResponse.checkoutResponse']);
  });
});

describe('verifyCheckoutJws with the real vectors', () => {
  it.each(vectors.cases.map((c) => [c.name, c] as const))('%s verifies', async (_name, vector) => {
    const verified = await verifyCheckoutJws(vector.sdkResult.checkoutResponse, networkResolver, options);
    expect(verified.payload).toEqual(vector.jwsPayload);
    expect(verified.iat).toBe(vectors.iat);
    expect(verified.jti).toBe(vector.jwsPayload.srcCorrelationId);
    expect(verified.kid).toMatch(/^sandbox-network-/);
    expect(['RS256', 'PS256', 'ES256']).toContain(verified.alg);
  });
});

describe('verifyCheckoutJws rejects', () => {
  const kid = 'test-rsa';
  let privateKey: CryptoKey;
  let publicKey: CryptoKey;
  let resolver: KeyResolver;
  const payload = {
    srcCorrelationId: 'corr-1',
    encryptedPayload: 'a.b.c.d.e',
    assuranceData: { eci: '05' },
  };
  const header = (extra: Record<string, unknown> = {}) => ({ alg: 'RS256', kid, iat: NOW_S - 10, ...extra });
  /** Asserts the class (the client-facing code) and the internal reason in `cause`. */
  const rejects = async (jws: string, errorClass: new (...args: never[]) => Error, reason: RegExp, resolve = resolver) => {
    const error = await failure(() => verifyCheckoutJws(jws, resolve, options));
    expect(error).toBeInstanceOf(errorClass);
    expect(((error as Error).cause as Error).message).toMatch(reason);
  };

  beforeAll(async () => {
    ({ privateKey, publicKey } = await generateKeyPair('RS256'));
    resolver = jwksResolver([{ ...(await exportJWK(publicKey)), kid }]);
  });

  it('accepts a well-formed token signed by the trusted key (baseline)', async () => {
    const verified = await verifyCheckoutJws(await signJws(header({ jti: 'j-1' }), payload, privateKey), resolver, options);
    expect(verified).toMatchObject({ kid, alg: 'RS256', jti: 'j-1', payload });
  });

  it('a tampered payload', async () => {
    const [h, , s] = (await signJws(header(), payload, privateKey)).split('.');
    await rejects(`${h}.${json({ ...payload, srcCorrelationId: 'corr-2' })}.${s}`, CheckoutSignatureInvalidError, /signature/);
  });

  it('a tampered signature', async () => {
    await rejects(flipSegment(await signJws(header(), payload, privateKey), 2), CheckoutSignatureInvalidError, /signature/);
  });

  it('alg none (unsigned), before any key is resolved', async () => {
    const resolve = vi.fn(resolver);
    const unsigned = `${json(header({ alg: 'none' }))}.${json(payload)}.`;
    await rejects(unsigned, CheckoutSignatureInvalidError, /alg not allowed/, resolve);
    expect(resolve).not.toHaveBeenCalled();
  });

  it('HS256 with the network public key as the HMAC secret, before any key is resolved', async () => {
    const secret = new TextEncoder().encode(await exportSPKI(publicKey));
    const resolve = vi.fn(async () => secret);
    const hmac = await signJws(header({ alg: 'HS256' }), payload, secret);
    await rejects(hmac, CheckoutSignatureInvalidError, /alg not allowed/, resolve);
    expect(resolve).not.toHaveBeenCalled();
  });

  it('an unknown kid', async () => {
    await rejects(await signJws(header({ kid: 'nobody' }), payload, privateKey), CheckoutSignatureInvalidError, /unknown kid/);
  });

  it('an embedded attacker jwk: never used, with an unknown or the trusted kid', async () => {
    const attacker = await generateKeyPair('RS256');
    const jwk = await exportJWK(attacker.publicKey);
    const forged = await signJws(header({ kid: 'attacker', jwk }), payload, attacker.privateKey);
    await rejects(forged, CheckoutSignatureInvalidError, /unknown kid/);
    await rejects(await signJws(header({ jwk }), payload, attacker.privateKey), CheckoutSignatureInvalidError, /signature/);
  });

  it('a crit header', async () => {
    const jws = await signJws(header({ crit: ['exp'], exp: 1 }), payload, privateKey, ['exp']);
    await rejects(jws, CheckoutSignatureInvalidError, /crit/);
  });

  it('a missing kid', async () => {
    const { kid: _omitted, ...noKid } = header();
    await rejects(await signJws(noKid, payload, privateKey), CheckoutSignatureInvalidError, /kid missing/);
  });

  it('an iat older than maxAge', async () => {
    await rejects(await signJws(header({ iat: NOW_S - MAX_AGE - 1 }), payload, privateKey), CheckoutExpiredError, /older/);
  });

  it('an iat in the future beyond the 30 s skew (29 s is tolerated)', async () => {
    await rejects(await signJws(header({ iat: NOW_S + 31 }), payload, privateKey), CheckoutExpiredError, /future/);
    await expect(verifyCheckoutJws(await signJws(header({ iat: NOW_S + 29 }), payload, privateKey), resolver, options)).resolves.toMatchObject({
      iat: NOW_S + 29,
    });
  });

  it('a stale payload iat even when the header iat is fresh', async () => {
    const jws = await signJws(header(), { ...payload, iat: NOW_S - MAX_AGE - 1 }, privateKey);
    await rejects(jws, CheckoutExpiredError, /older/);
  });

  it('a missing iat (neither header nor payload)', async () => {
    const { iat: _omitted, ...noIat } = header();
    await rejects(await signJws(noIat, payload, privateKey), CheckoutExpiredError, /iat missing/);
  });

  it('2 and 4 segments', async () => {
    const jws = await signJws(header(), payload, privateKey);
    await rejects(jws.split('.').slice(0, 2).join('.'), CheckoutSignatureInvalidError, /2 segments/);
    await rejects(`${jws}.${json({})}`, CheckoutSignatureInvalidError, /4 segments/);
  });

  it('a validly signed JWS over 32 KiB, before any key is resolved', async () => {
    const resolve = vi.fn(resolver);
    const big = await signJws(header(), { ...payload, padding: 'x'.repeat(MAX_JWS_LENGTH) }, privateKey);
    expect(big.length).toBeGreaterThan(MAX_JWS_LENGTH);
    await rejects(big, CheckoutSignatureInvalidError, /size limit/, resolve);
    expect(resolve).not.toHaveBeenCalled();
  });

  it('a signed payload without encryptedPayload or srcCorrelationId (422 payload invalid)', async () => {
    const { encryptedPayload: _e, ...noJwe } = payload;
    await rejects(await signJws(header(), noJwe, privateKey), CheckoutPayloadInvalidError, /encryptedPayload/);
    const { srcCorrelationId: _c, ...noCorrelation } = payload;
    await rejects(await signJws(header(), noCorrelation, privateKey), CheckoutPayloadInvalidError, /srcCorrelationId/);
  });
});

/**
 * SPEC §4.3 step 2: a network's `exp` and `nbf` bound the response, in the protected header
 * and in the payload alike, with 30 s of clock skew (frozen clock at NOW_S). Read as
 * RFC 7519 and jose's jwtVerify do: refused from `exp` + 30 s on, and while `nbf` − 30 s is
 * still ahead.
 */
describe("verifyCheckoutJws enforces the network's exp and nbf", () => {
  const kid = 'validity-rsa';
  let privateKey: CryptoKey;
  let resolver: KeyResolver;
  const payload = { srcCorrelationId: 'corr-v', encryptedPayload: 'a.b.c.d.e' };
  const baseHeader = { alg: 'RS256', kid, iat: NOW_S - 10 };

  beforeAll(async () => {
    let publicKey: CryptoKey;
    ({ privateKey, publicKey } = await generateKeyPair('RS256'));
    resolver = jwksResolver([{ ...(await exportJWK(publicKey)), kid }]);
  });

  /** A token carrying `claims` in the header or in the payload (the other place has none). */
  const signedWith = (where: 'header' | 'payload', claims: Record<string, unknown>) =>
    where === 'header' ? signJws({ ...baseHeader, ...claims }, payload, privateKey) : signJws(baseHeader, { ...payload, ...claims }, privateKey);
  const verify = (jws: string) => verifyCheckoutJws(jws, resolver, options);
  const expiredBecause = async (jws: string, reason: RegExp) => {
    const error = await failure(() => verify(jws));
    expect(error).toBeInstanceOf(CheckoutExpiredError);
    expect((error as CheckoutExpiredError).code).toBe('CHECKOUT_EXPIRED');
    expect(statusOf(error as CheckoutExpiredError).status).toBe(422);
    expect(((error as Error).cause as Error).message).toMatch(reason);
  };
  const places = ['header', 'payload'] as const;

  it.each(places)('%s exp: an hour past is refused; 30 s past is the boundary; 29 s past and ahead are accepted', async (where) => {
    await expiredBecause(await signedWith(where, { exp: NOW_S - 3600 }), new RegExp(`${where} exp has passed`));
    await expiredBecause(await signedWith(where, { exp: NOW_S - 30 }), /exp has passed/);
    await expect(verify(await signedWith(where, { exp: NOW_S - 29 }))).resolves.toMatchObject({ kid });
    await expect(verify(await signedWith(where, { exp: NOW_S + 3600 }))).resolves.toMatchObject({ kid });
  });

  it.each(places)('%s nbf: an hour ahead is refused; 31 s ahead is refused; 30 s ahead and past are accepted', async (where) => {
    await expiredBecause(await signedWith(where, { nbf: NOW_S + 3600 }), new RegExp(`${where} nbf is in the future`));
    await expiredBecause(await signedWith(where, { nbf: NOW_S + 31 }), /nbf is in the future/);
    await expect(verify(await signedWith(where, { nbf: NOW_S + 30 }))).resolves.toMatchObject({ kid });
    await expect(verify(await signedWith(where, { nbf: NOW_S - 3600 }))).resolves.toMatchObject({ kid });
  });

  it('a window that holds in one place does not excuse the other: header and payload are both checked', async () => {
    const fresh = { exp: NOW_S + 600, nbf: NOW_S - 600 };
    await expect(verify(await signJws({ ...baseHeader, ...fresh }, { ...payload, ...fresh }, privateKey))).resolves.toBeDefined();
    await expiredBecause(await signJws({ ...baseHeader, ...fresh }, { ...payload, exp: NOW_S - 60 }, privateKey), /payload exp/);
    await expiredBecause(await signJws({ ...baseHeader, exp: NOW_S - 60 }, { ...payload, ...fresh }, privateKey), /header exp/);
    await expiredBecause(await signJws({ ...baseHeader, ...fresh }, { ...payload, nbf: NOW_S + 60 }, privateKey), /payload nbf/);
    await expiredBecause(await signJws({ ...baseHeader, nbf: NOW_S + 60 }, { ...payload, ...fresh }, privateKey), /header nbf/);
  });

  it("a fresh iat does not stretch a passed exp (the network's shorter validity wins)", async () => {
    await expiredBecause(await signJws({ ...baseHeader, iat: NOW_S - 5, exp: NOW_S - 31 }, payload, privateKey), /exp has passed/);
  });

  it.each(places)('%s exp or nbf that is not a NumericDate is refused as expired (decision)', async (where) => {
    for (const value of [String(NOW_S + 3600), null, true, {}, [NOW_S + 3600]]) {
      await expiredBecause(await signedWith(where, { exp: value }), /exp is not a number/);
      await expiredBecause(await signedWith(where, { nbf: value }), /nbf is not a number/);
    }
  });

  it('a passed exp is still a signature error first when the signature is bad (no time oracle for forgeries)', async () => {
    const jws = flipSegment(await signedWith('payload', { exp: NOW_S - 3600 }), 2);
    const error = await failure(() => verify(jws));
    expect(error).toBeInstanceOf(CheckoutSignatureInvalidError);
  });
});

/**
 * SPEC §4.3 step 2: no byte-different copy of a signed checkout response may verify. Each
 * mutation below keeps the decoded bytes (or, for high-S, the signature's validity) intact,
 * so jose alone would accept it; the originals still verify.
 */
describe('verifyCheckoutJws refuses malleated copies', () => {
  /** The last character of a segment with an unused bit set: same bytes, different text. */
  const setUnusedBit = (segment: string) => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(segment.at(-1)!);
    return segment.slice(0, -1) + alphabet[last | 1];
  };
  const withSegment = (jws: string, index: number, change: (segment: string) => string) =>
    jws
      .split('.')
      .map((segment, i) => (i === index ? change(segment) : segment))
      .join('.');
  const refused = async (jws: string, reason: RegExp) => {
    const error = await failure(() => verifyCheckoutJws(jws, networkResolver, options));
    expect(error).toBeInstanceOf(CheckoutSignatureInvalidError);
    expect(((error as Error).cause as Error).message).toMatch(reason);
  };
  const segmentsOf = vectors.cases.flatMap((vector) => [0, 1, 2].map((index) => [vector.name, index, vector] as const));

  it.each(segmentsOf)('%s segment %i: padded', async (_name, index, vector) => {
    const jws = vector.sdkResult.checkoutResponse;
    const segment = jws.split('.')[index]!;
    const padding = '='.repeat((4 - (segment.length % 4)) % 4) || '==';
    await refused(
      withSegment(jws, index, (s) => s + padding),
      /not canonical base64url/,
    );
  });

  /** Segments whose length leaves unused bits (a multiple of 3 bytes has none). */
  const withUnusedBits = segmentsOf.filter(([, index, vector]) => vector.sdkResult.checkoutResponse.split('.')[index]!.length % 4 !== 0);

  it('the vectors cover headers and signatures with unused bits; a signed payload covers the payload', async () => {
    expect(new Set(withUnusedBits.map(([, index]) => index))).toEqual(new Set([0, 2]));
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const resolve = jwksResolver([{ ...(await exportJWK(publicKey)), kid: 'ec' }]);
    const payload = { srcCorrelationId: 'c', encryptedPayload: 'x', pad: '' };
    while (json(payload).length % 4 === 0) payload.pad += 'x';
    const jws = await signJws({ alg: 'ES256', kid: 'ec', iat: NOW_S }, payload, privateKey);
    await expect(verifyCheckoutJws(jws, resolve, options)).resolves.toBeDefined();
    const error = await failure(() => verifyCheckoutJws(withSegment(jws, 1, setUnusedBit), resolve, options));
    expect(error).toBeInstanceOf(CheckoutSignatureInvalidError);
    expect(((error as Error).cause as Error).message).toMatch(/payload is not canonical/);
  });

  it.each(withUnusedBits)('%s segment %i: an unused bit set in the last character', async (_name, index, vector) => {
    const jws = vector.sdkResult.checkoutResponse;
    const mutated = withSegment(jws, index, setUnusedBit);
    expect(mutated).not.toBe(jws);
    const decode = (s: string) => s.split('.').map((part) => Buffer.from(part, 'base64url').toString('hex'));
    expect(decode(mutated)).toEqual(decode(jws)); // same bytes: jose alone would accept it
    await refused(mutated, /not canonical base64url/);
  });

  it.each(vectors.cases.map((c) => [c.name, c] as const))('%s: whitespace and a trailing newline', async (_name, vector) => {
    const jws = vector.sdkResult.checkoutResponse;
    await refused(`${jws}\n`, /signature is not canonical/);
    await refused(`${jws}\r\n`, /signature is not canonical/);
    await refused(
      withSegment(jws, 1, (s) => `${s.slice(0, 8)}\n${s.slice(8)}`),
      /payload is not canonical/,
    );
    await refused(` ${jws}`, /protected header is not canonical/);
    await expect(verifyCheckoutJws(jws, networkResolver, options)).resolves.toBeDefined();
  });

  it('the ES256 high-S twin (r, n − s), which jose accepts', async () => {
    const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
    const vector = vectors.cases.find((c) => c.name.includes('es256'))!;
    const jws = vector.sdkResult.checkoutResponse;
    const twin = withSegment(jws, 2, (segment) => {
      const signature = Buffer.from(segment, 'base64url');
      const s = BigInt(`0x${signature.subarray(32).toString('hex')}`);
      const highS = Buffer.from((P256_ORDER - s).toString(16).padStart(64, '0'), 'hex');
      return Buffer.concat([signature.subarray(0, 32), highS]).toString('base64url');
    });
    const key = await networkResolver({ alg: 'ES256', kid: JSON.parse(Buffer.from(jws.split('.')[0]!, 'base64url').toString()).kid });
    await expect(compactVerify(twin, key)).resolves.toBeDefined(); // the twin is a valid ECDSA signature
    await refused(twin, /low-S/);
    await expect(verifyCheckoutJws(jws, networkResolver, options)).resolves.toBeDefined();
  });

  it('an ES256 signature that is not 64 bytes, before any key is resolved', async () => {
    const vector = vectors.cases.find((c) => c.name.includes('es256'))!;
    const resolve = vi.fn(networkResolver);
    const long = withSegment(vector.sdkResult.checkoutResponse, 2, (s) => Buffer.concat([Buffer.from(s, 'base64url'), Buffer.alloc(1)]).toString('base64url'));
    const error = await failure(() => verifyCheckoutJws(long, resolve, options));
    expect(error).toBeInstanceOf(CheckoutSignatureInvalidError);
    expect(resolve).not.toHaveBeenCalled();
  });

  it('signatures made by the sandbox helper are always low-S (jose is not)', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const resolve = jwksResolver([{ ...(await exportJWK(publicKey)), kid: 'ec' }]);
    for (let i = 0; i < 16; i++) {
      const jws = await signJws({ alg: 'ES256', kid: 'ec', iat: NOW_S }, { srcCorrelationId: `c-${i}`, encryptedPayload: 'x' }, privateKey);
      await expect(verifyCheckoutJws(jws, resolve, options)).resolves.toMatchObject({ alg: 'ES256' });
    }
  });
});
