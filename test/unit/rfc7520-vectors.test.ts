import { createPrivateKey, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DecryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { compactVerify, importJWK, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startKmsServer, type RunningKmsServer } from '../../infra/local/kms-server.js';
import { decryptCheckoutJwe, decryptJweContent } from '../../lib/core/checkout/jwe.js';
import { verifyCheckoutJws, verifyCheckoutSignature, type KeyResolver } from '../../lib/core/checkout/jws.js';
import { NetworkKeyRing } from '../../lib/adapters/jwks/network-key-ring.js';
import { CheckoutDecryptionFailedError, CheckoutPayloadInvalidError, CheckoutSignatureInvalidError } from '../../lib/core/errors.js';
import { PayloadKeyVault } from '../../lib/adapters/kms/payload-key-vault.js';
import {
  BILBO_EC_PUBLIC_KEY,
  BILBO_RSA_PUBLIC_KEY,
  FRODO_RSA_PRIVATE_KEY,
  JWE_5_1_CEK,
  JWE_5_1_RSA1_5_A128CBC_HS256,
  JWE_5_2_CEK,
  JWE_5_2_RSA_OAEP_A256GCM,
  JWE_PLAINTEXT_TEXT,
  JWS_4_1_RS256,
  JWS_4_2_PS384,
  JWS_4_3_ES512,
  JWS_PAYLOAD_B64U,
  JWS_PAYLOAD_TEXT,
  SAMWISE_RSA_PRIVATE_KEY,
} from '../fixtures/rfc7520-vectors.js';

/**
 * RFC 7520's published vectors through the service's own verify (SPEC §4.3 step 2) and
 * decrypt (step 5), with the keys supplied as production supplies them: the network's
 * signing key from a JWKS served over a socket through NetworkKeyRing, the payload keys in a
 * KMS-protocol server (this file's own, holding the RFC's private keys: the emulator's data
 * file is how key material is brought into it) behind PayloadKeyVault. In-scope vectors
 * (RS256; RSA-OAEP + A256GCM) verify or decrypt to the RFC's plaintext; those the service
 * refuses (PS384, ES512, RSA1_5) are valid — shown with their keys — and get the SPEC's 422;
 * every single-bit change of an in-scope vector, in any segment, is refused.
 */
const NETWORK = 'rfc7520';
const utf8 = (bytes: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(bytes);

let jwksServer: Server;
let jwksUrl: string;
let kmsServer: RunningKmsServer;
let dataDir: string;
const kmsKeyIds = { samwise: randomUUID(), frodo: randomUUID() };

beforeAll(async () => {
  jwksServer = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ keys: [BILBO_RSA_PUBLIC_KEY] }));
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json`;

  dataDir = await mkdtemp(join(tmpdir(), 'rfc7520-kms-'));
  const dataFile = join(dataDir, 'kms.json');
  const pem = (jwk: JWK) =>
    createPrivateKey({ key: jwk as never, format: 'jwk' })
      .export({ type: 'pkcs8', format: 'pem' })
      .toString();
  const record = (id: string, spec: string, jwk: JWK) => ({
    id,
    description: `RFC 7520 ${jwk.kid}`,
    tags: [],
    state: 'Enabled',
    creationDate: 1_431_000_000,
    spec,
    privateKeyPem: pem(jwk),
  });
  const keys = [record(kmsKeyIds.samwise, 'RSA_4096', SAMWISE_RSA_PRIVATE_KEY), record(kmsKeyIds.frodo, 'RSA_2048', FRODO_RSA_PRIVATE_KEY)];
  await writeFile(dataFile, JSON.stringify({ version: 1, keys, aliases: [] }), { mode: 0o600 });
  kmsServer = await startKmsServer({ port: 0, dataFile });
});

afterAll(async () => {
  jwksServer.closeAllConnections();
  await new Promise<void>((resolve) => jwksServer.close(() => resolve()));
  await kmsServer.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** As lib/core/payments/pay-with-click-to-pay.ts resolves a checkout JWS key. */
function networkResolver(): KeyResolver & { ring: NetworkKeyRing } {
  const ring = new NetworkKeyRing([{ name: NETWORK, url: jwksUrl }], { logger: { warn: vi.fn() } });
  const resolve = async ({ kid, alg }: { kid: string; alg: string }) => (await ring.resolve(kid, alg, NETWORK)).key;
  return Object.assign(resolve, { ring });
}

/** The KMS-backed vault, counting the Decrypt calls that reach the KMS server. */
function vault(keyIds: string[], networkKids: Record<string, string[]> = {}) {
  const kms = new KMSClient({ endpoint: kmsServer.url, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const send = vi.spyOn(kms, 'send');
  const instance = new PayloadKeyVault(kms, keyIds, { networkKids, logger: { info: vi.fn(), warn: vi.fn() } });
  const decrypts = () => send.mock.calls.filter(([command]) => command instanceof DecryptCommand).length;
  return { instance, decrypts };
}

const options = { maxAgeSeconds: 900, now: () => Date.UTC(2015, 4, 1) };

/** The compact object with one bit of one segment's bytes flipped; still canonical base64url. */
function flipBit(compact: string, segment: number, bit: number): string {
  const segments = compact.split('.');
  const bytes = Buffer.from(segments[segment]!, 'base64url');
  bytes[bit >> 3] = bytes[bit >> 3]! ^ (0x80 >> (bit & 7));
  segments[segment] = bytes.toString('base64url');
  return segments.join('.');
}
/** The compact object with one segment one byte shorter or one byte longer. */
function resized(compact: string, segment: number, change: 'truncated' | 'extended'): string {
  const segments = compact.split('.');
  const bytes = Buffer.from(segments[segment]!, 'base64url');
  segments[segment] = (change === 'truncated' ? bytes.subarray(0, -1) : Buffer.concat([bytes, Buffer.from([0])])).toString('base64url');
  return segments.join('.');
}
const bitsOf = (compact: string, segment: number) => Buffer.from(compact.split('.')[segment]!, 'base64url').length * 8;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('RFC 7520 JWS vectors through verifyCheckoutJws and the network key ring', () => {
  it('§4.1 RS256 verifies with the key from the network JWKS, to the RFC payload (Figures 7, 8)', async () => {
    const verified = await verifyCheckoutSignature(JWS_4_1_RS256, networkResolver());
    expect(verified.header).toEqual({ alg: 'RS256', kid: 'bilbo.baggins@hobbiton.example' });
    expect(Buffer.from(verified.payload).toString('base64url')).toBe(JWS_PAYLOAD_B64U);
    expect(utf8(verified.payload)).toBe(JWS_PAYLOAD_TEXT);
  });

  it('§4.1 through the whole checkout verify: the signature holds, then the payload (prose) is 422 CHECKOUT_PAYLOAD_INVALID', async () => {
    const error = await verifyCheckoutJws(JWS_4_1_RS256, networkResolver(), options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckoutPayloadInvalidError);
    expect(((error as Error).cause as Error).message).toBe('payload is not a JSON object');
  });

  it.each([
    ['§4.2 PS384', JWS_4_2_PS384, BILBO_RSA_PUBLIC_KEY],
    ['§4.3 ES512', JWS_4_3_ES512, BILBO_EC_PUBLIC_KEY],
  ] as const)('%s is a valid signature, and 422 CHECKOUT_SIGNATURE_INVALID (alg not allowed) before any key lookup', async (_name, jws, jwk) => {
    const alg = JSON.parse(Buffer.from(jws.split('.')[0]!, 'base64url').toString()).alg as string;
    expect(utf8((await compactVerify(jws, await importJWK(jwk, alg))).payload)).toBe(JWS_PAYLOAD_TEXT);
    const resolver = vi.fn(networkResolver());
    const error = await verifyCheckoutJws(jws, resolver, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckoutSignatureInvalidError);
    expect((error as CheckoutSignatureInvalidError).code).toBe('CHECKOUT_SIGNATURE_INVALID');
    expect(((error as Error).cause as Error).message).toBe('alg not allowed');
    expect(resolver).not.toHaveBeenCalled();
  });

  it.each([
    ['protected header', 0],
    ['payload', 1],
    ['signature', 2],
  ] as const)(
    '§4.1 with any single bit of its %s flipped, or that segment a byte shorter or longer, is 422 CHECKOUT_SIGNATURE_INVALID',
    async (_name, segment) => {
      const resolver = networkResolver();
      const mutants = [
        ...range(bitsOf(JWS_4_1_RS256, segment)).map((bit) => flipBit(JWS_4_1_RS256, segment, bit)),
        resized(JWS_4_1_RS256, segment, 'truncated'),
        resized(JWS_4_1_RS256, segment, 'extended'),
      ];
      for (const mutant of mutants) {
        expect(mutant).not.toBe(JWS_4_1_RS256);
        const error = await verifyCheckoutJws(mutant, resolver, options).catch((e: unknown) => e);
        expect(error, mutant).toBeInstanceOf(CheckoutSignatureInvalidError);
      }
      await expect(verifyCheckoutSignature(JWS_4_1_RS256, resolver)).resolves.toBeDefined(); // the original still does
    },
  );
});

describe('RFC 7520 JWE vectors through decryptCheckoutJwe and the KMS key vault', () => {
  it('§5.2 RSA-OAEP + A256GCM, its kid registered for the key: one Decrypt, the RFC CEK (§5.2.2) and plaintext (Figure 72)', async () => {
    const { instance, decrypts } = vault([kmsKeyIds.samwise], { [kmsKeyIds.samwise]: ['samwise.gamgee@hobbiton.example'] });
    expect(utf8(await decryptCheckoutJwe(JWE_5_2_RSA_OAEP_A256GCM, instance))).toBe(JWE_PLAINTEXT_TEXT);
    expect(decrypts()).toBe(1);
    const encryptedKey = Buffer.from(JWE_5_2_RSA_OAEP_A256GCM.split('.')[1]!, 'base64url');
    expect(Buffer.from(await instance.unwrap('samwise.gamgee@hobbiton.example', 'RSA-OAEP', encryptedKey)).toString('base64url')).toBe(JWE_5_2_CEK);
  });

  it('§5.2 with its kid not registered: the trial opens it, skipping the key whose modulus does not fit (one Decrypt)', async () => {
    const { instance, decrypts } = vault([kmsKeyIds.frodo, kmsKeyIds.samwise]);
    expect(utf8(await decryptCheckoutJwe(JWE_5_2_RSA_OAEP_A256GCM, instance))).toBe(JWE_PLAINTEXT_TEXT);
    expect(decrypts()).toBe(1);
  });

  it('§5.1 RSA1_5 + A128CBC-HS256 is authentic (its content opens with the RFC CEK, §5.1.2) and 422 CHECKOUT_DECRYPTION_FAILED without a Decrypt, though the vault holds its key', async () => {
    const [header, , iv, ciphertext, tag] = JWE_5_1_RSA1_5_A128CBC_HS256.split('.').map((s, i) =>
      i === 0 ? Buffer.from(s, 'ascii') : Buffer.from(s, 'base64url'),
    );
    const content = decryptJweContent('A128CBC-HS256', Buffer.from(JWE_5_1_CEK, 'base64url'), iv!, ciphertext!, tag!, header!);
    expect(utf8(content)).toBe(JWE_PLAINTEXT_TEXT);
    const { instance, decrypts } = vault([kmsKeyIds.frodo], { [kmsKeyIds.frodo]: ['frodo.baggins@hobbiton.example'] });
    const error = await decryptCheckoutJwe(JWE_5_1_RSA1_5_A128CBC_HS256, instance).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckoutDecryptionFailedError);
    expect((error as CheckoutDecryptionFailedError).code).toBe('CHECKOUT_DECRYPTION_FAILED');
    expect(((error as Error).cause as Error).message).toBe('unsupported alg');
    expect(decrypts()).toBe(0);
  });

  /**
   * Every bit of the IV and the tag; one bit of every byte of the header and the ciphertext
   * (a different bit position per byte); one bit at 32 positions across the encrypted key (each
   * costs an RSA-4096 Decrypt); and each segment a byte shorter or longer.
   */
  const jweMutations = [
    ['protected header', 0, (bits: number) => range(bits / 8).map((byte) => byte * 8 + (byte % 8))],
    ['encrypted key', 1, (bits: number) => range(32).map((i) => Math.floor((i * (bits - 1)) / 31))],
    ['iv', 2, (bits: number) => range(bits)],
    ['ciphertext', 3, (bits: number) => range(bits / 8).map((byte) => byte * 8 + (byte % 8))],
    ['tag', 4, (bits: number) => range(bits)],
  ] as const;

  it.each(jweMutations)('§5.2 with a flipped bit in its %s, or that segment resized, is 422 CHECKOUT_DECRYPTION_FAILED', async (_name, segment, positions) => {
    const { instance } = vault([kmsKeyIds.samwise], { [kmsKeyIds.samwise]: ['samwise.gamgee@hobbiton.example'] });
    const mutants = [
      ...positions(bitsOf(JWE_5_2_RSA_OAEP_A256GCM, segment)).map((bit) => flipBit(JWE_5_2_RSA_OAEP_A256GCM, segment, bit)),
      resized(JWE_5_2_RSA_OAEP_A256GCM, segment, 'truncated'),
      resized(JWE_5_2_RSA_OAEP_A256GCM, segment, 'extended'),
    ];
    expect(new Set(mutants).size).toBe(mutants.length);
    for (const mutant of mutants) {
      const error = await decryptCheckoutJwe(mutant, instance).catch((e: unknown) => e);
      expect(error, mutant.slice(0, 80)).toBeInstanceOf(CheckoutDecryptionFailedError);
    }
    expect(utf8(await decryptCheckoutJwe(JWE_5_2_RSA_OAEP_A256GCM, instance))).toBe(JWE_PLAINTEXT_TEXT); // the original still does
  });
});
