import { createHash, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compactVerify, importJWK, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyCheckoutJws } from '../../lib/core/checkout/jws.js';
import { NetworkKeyRing } from '../../lib/adapters/jwks/network-key-ring.js';
import { CheckoutSignatureInvalidError } from '../../lib/core/errors.js';
import { rsalibKeyPair } from '../support/rsalib-key.js';

/**
 * SPEC §4.3 step 2: a network RSA key whose public exponent is not 65537, that is shorter
 * than 2048 bits, or that carries the ROCA fingerprint is never trusted. The keys sit in a
 * network's JWKS served over a real socket next to a good one; each is dropped at load with
 * a warning naming its kid, and a checkout response it signed is an unknown kid (422). Each
 * such response is a valid signature under its key (checked with jose or node:crypto), so
 * only the key policy refuses it.
 */
const NOW_S = 1_800_000_000;
const options = { maxAgeSeconds: 900, now: () => NOW_S * 1000 };
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const payload = { srcCorrelationId: 'corr-weak', encryptedPayload: 'a.b.c.d.e' };

/** RS256 with node:crypto directly: jose refuses to sign with a key under 2048 bits. */
function rs256(kid: string, key: KeyObject): string {
  const input = `${b64({ alg: 'RS256', kid, iat: NOW_S })}.${b64(payload)}`;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

/**
 * With e = 1 the RSA "signature" is the padded digest itself (EMSA-PKCS1-v1_5, RFC 8017
 * §9.2): anyone can make one for any message, no private key involved.
 */
function forgedWithExponentOne(kid: string, modulusBytes: number): string {
  const input = `${b64({ alg: 'RS256', kid, iat: NOW_S })}.${b64(payload)}`;
  const digestInfo = Buffer.concat([Buffer.from('3031300d060960864801650304020105000420', 'hex'), createHash('sha256').update(input).digest()]);
  const encoded = Buffer.concat([Buffer.from([0, 1]), Buffer.alloc(modulusBytes - digestInfo.length - 3, 0xff), Buffer.from([0]), digestInfo]);
  return `${input}.${encoded.toString('base64url')}`;
}

const publicJwk = (key: KeyObject, kid: string): JWK => ({ ...(createPublicKey(key).export({ format: 'jwk' }) as JWK), kid, use: 'sig' });

let server: Server;
let url: string;
const bodies = new Map<string, string>();
const good = generateKeyPairSync('rsa', { modulusLength: 2048 });
const exponent3 = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 3 });
const short = generateKeyPairSync('rsa', { modulusLength: 1024 });
const rsalib = rsalibKeyPair();
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const keys: Record<string, JWK> = {
  good: publicJwk(good.privateKey, 'good'),
  e3: publicJwk(exponent3.privateKey, 'e3'),
  e1: { ...publicJwk(good.privateKey, 'e1'), e: 'AQ' }, // the good key's modulus, exponent 1
  short: publicJwk(short.privateKey, 'short'),
  roca: { ...rsalib.publicJwk, kid: 'roca', use: 'sig' },
  ec: publicJwk(ec.privateKey, 'ec'),
};

beforeAll(async () => {
  server = createServer((request, response) => {
    const body = bodies.get(request.url ?? '');
    response.writeHead(body === undefined ? 404 : 200, { 'Content-Type': 'application/json' }).end(body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let sequence = 0;
/** A network whose JWKS (served at a fresh path) holds `jwks`, with a spied logger. */
function network(jwks: JWK[]) {
  const path = `/network-${(sequence += 1)}/jwks.json`;
  bodies.set(path, JSON.stringify({ keys: jwks }));
  const logger = { warn: vi.fn() };
  const ring = new NetworkKeyRing([{ name: 'visa', url: `${url}${path}` }], { logger });
  const resolver = async ({ kid, alg }: { kid: string; alg: string }) => (await ring.resolve(kid, alg, 'visa')).key;
  return { ring, logger, resolver };
}

const weak = [
  ['e3', 'public exponent 3', () => rs256('e3', exponent3.privateKey), /public exponent is not 65537/],
  ['e1', 'public exponent 1 (signature forged without any private key)', () => forgedWithExponentOne('e1', 256), /public exponent is not 65537/],
  ['short', 'a 1024-bit modulus', () => rs256('short', short.privateKey), /modulus is 1024 bits, under 2048/],
  ['roca', 'the ROCA fingerprint (an RSALib-shaped 2048-bit key, e = 65537)', () => rs256('roca', rsalib.privateKey), /ROCA fingerprint/],
] as const;

describe('a network JWKS with weak RSA keys', () => {
  it.each(weak)('%s (%s): dropped at load with a log line naming its kid; what it signed is 422 unknown kid', async (kid, _what, signed, reason) => {
    const { logger, resolver } = network(Object.values(keys));
    const jws = signed();
    // The signature is valid under the key: only the key policy stands in the way.
    const [input, signature] = [jws.slice(0, jws.lastIndexOf('.')), Buffer.from(jws.split('.')[2]!, 'base64url')];
    expect(verify('sha256', Buffer.from(input), createPublicKey({ key: keys[kid]!, format: 'jwk' }), signature)).toBe(true);
    if (kid !== 'short') await expect(compactVerify(jws, await importJWK(keys[kid]!, 'RS256'))).resolves.toBeDefined(); // jose itself refuses < 2048 bits

    const error = await verifyCheckoutJws(jws, resolver, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckoutSignatureInvalidError);
    expect(((error as Error).cause as Error).message).toBe('unknown kid');
    expect(logger.warn).toHaveBeenCalledWith('JWKS key not trusted: dropped', expect.objectContaining({ kid, reason: expect.stringMatching(reason) }));
  });

  it('the good RSA key and the EC key of the same set still verify, and are not reported', async () => {
    const { logger, resolver, ring } = network(Object.values(keys));
    await expect(verifyCheckoutJws(rs256('good', good.privateKey), resolver, options)).resolves.toMatchObject({ kid: 'good', alg: 'RS256' });
    await expect(ring.resolve('ec', 'ES256')).resolves.toMatchObject({ network: 'visa' });
    const reported = logger.warn.mock.calls.map(([, fields]) => (fields as { kid: string }).kid);
    expect(reported.sort()).toEqual(['e1', 'e3', 'roca', 'short']);
  });

  it('a weak key keeps its kid: a later entry with the same kid does not stand in for it', async () => {
    const { resolver } = network([keys.e3!, { ...keys.good!, kid: 'e3' }]);
    const error = await verifyCheckoutJws(rs256('e3', good.privateKey), resolver, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckoutSignatureInvalidError);
  });
});
