import { generateKeyPairSync } from 'node:crypto';
import { CreateKeyCommand, DecryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { CompactEncrypt, exportJWK, importJWK, type JWK } from 'jose';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { decryptCheckoutJwe } from '../../lib/core/checkout/jwe.js';
import { verifyCheckoutJws } from '../../lib/core/checkout/jws.js';
import { parseDecryptedPayload } from '../../lib/core/checkout/payment-data.js';
import { CheckoutDecryptionFailedError, DependencyUnavailableError, InternalError } from '../../lib/core/errors.js';
import { PayloadKeyVault } from '../../lib/adapters/kms/payload-key-vault.js';
import {
  buildCheckoutFixture,
  fixtureNow,
  MASTERCARD_NETWORK_KID,
  PAYLOAD_SHAPES,
  VISA_NETWORK_KID,
  type PayloadShape,
} from '../fixtures/network-checkout-responses.js';

/**
 * SPEC §4.3 step 5 / issue 10 item 1, against the local KMS server: the JWE `kid` is our
 * thumbprint, a network-assigned id registered for a payload key (Visa serial|DN, Mastercard
 * fingerprint), or unknown — then each configured key is tried, current first, one Decrypt
 * per key. A key nothing opens is 422; a KMS fault during the trial stays 503 and stops it.
 */
const PREVIOUS = process.env.PAYLOAD_KEY_IDS!; // the stack's key, here the "previous" one
let CURRENT: string; // a second KMS key, created for this file
const VISA = PAYLOAD_SHAPES.find((s) => s.brand === 'VISA' && !s.expected.invalid)!;
const MASTERCARD = PAYLOAD_SHAPES.find((s) => s.brand === 'MASTERCARD' && !s.expected.invalid)!;
let signingKey: JWK;
let verifyingKey: JWK;
let recipient: { current: JWK; previous: JWK; foreign: JWK };
let arns: { current: string; previous: string };

const kms = () => new KMSClient({ endpoint: process.env.KMS_ENDPOINT, region: 'us-east-1' });

beforeAll(async () => {
  const { KeyMetadata } = await kms().send(new CreateKeyCommand({ KeySpec: 'RSA_2048', KeyUsage: 'ENCRYPT_DECRYPT' }));
  CURRENT = KeyMetadata!.Arn!;
  const [current, previous] = await new PayloadKeyVault(kms(), [CURRENT, PREVIOUS]).publicKeys();
  arns = { current: current!.kmsKeyArn, previous: previous!.kmsKeyArn };
  // A 2048-bit key no configuration names: what a payload encrypted to a wrong key looks like.
  const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
  recipient = { current: current!.jwk, previous: previous!.jwk, foreign: { ...(await exportJWK(foreign)), kid: 'foreign' } };
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  signingKey = { ...(await exportJWK(privateKey)), kid: 'fixture-network', alg: 'ES256' };
  verifyingKey = { ...(await exportJWK(publicKey)), kid: 'fixture-network', alg: 'ES256' };
});

interface VaultOptions {
  networkKids?: Record<string, string[]>;
  /** Replaces the answer to the n-th (1-based) Decrypt with this rejection. */
  failDecrypt?: { call: number; error: Error };
}

function vault(options: VaultOptions = {}) {
  const client = kms();
  const original = client.send.bind(client);
  const decrypted: string[] = [];
  vi.spyOn(client, 'send').mockImplementation((async (command: unknown) => {
    if (command instanceof DecryptCommand) {
      decrypted.push(String(command.input.KeyId));
      if (options.failDecrypt?.call === decrypted.length) throw options.failDecrypt.error;
    }
    return original(command as never);
  }) as never);
  const logger = { info: vi.fn(), warn: vi.fn() };
  const instance = new PayloadKeyVault(client, [CURRENT, PREVIOUS], { networkKids: options.networkKids ?? {}, logger });
  return { instance, decrypted, logger };
}

/** The fixture's JWE (after checking its JWS), encrypted to `to` with JWE kid `kid`. */
async function jweOf(shape: PayloadShape, to: JWK, kid?: string): Promise<string> {
  const { sdkResult } = await buildCheckoutFixture(shape, { signingKey, recipientKey: to }, kid);
  const verified = await verifyCheckoutJws(sdkResult.checkoutResponse, async () => (await importJWK(verifyingKey, 'ES256')) as CryptoKey, {
    maxAgeSeconds: 900,
    now: fixtureNow,
  });
  return verified.payload.encryptedPayload;
}

const open = async (jwe: string, v: PayloadKeyVault) => parseDecryptedPayload(await decryptCheckoutJwe(jwe, v));
const kmsError = (name: string) => Object.assign(new Error(`KMS said ${name}`), { name, $fault: 'server' });

describe('the key-wrap algorithm (SPEC 4.3 step 5: RSA-OAEP-256, also RSA-OAEP)', () => {
  it('RSA-OAEP (SHA-1) is unwrapped by KMS as RSAES_OAEP_SHA_1, RSA-OAEP-256 as RSAES_OAEP_SHA_256', async () => {
    const key = await importJWK({ ...recipient.current, alg: undefined, use: undefined } as JWK, 'RSA-OAEP');
    const key256 = await importJWK({ ...recipient.current, alg: undefined, use: undefined } as JWK, 'RSA-OAEP-256');
    for (const [alg, publicKey] of [
      ['RSA-OAEP', key],
      ['RSA-OAEP-256', key256],
    ] as const) {
      const jwe = await new CompactEncrypt(new TextEncoder().encode(`{"wrapped":"${alg}"}`))
        .setProtectedHeader({ alg, enc: 'A256GCM', kid: recipient.current.kid! })
        .encrypt(publicKey);
      const { instance, decrypted } = vault();
      expect(new TextDecoder().decode(await decryptCheckoutJwe(jwe, instance)), alg).toBe(`{"wrapped":"${alg}"}`);
      expect(decrypted).toEqual([arns.current]);
    }
  });
});

describe('recipient key by kid form', () => {
  it('our RFC 7638 thumbprint: one Decrypt with that key, no trial, nothing logged', async () => {
    for (const [to, arn] of [
      [recipient.current, arns.current],
      [recipient.previous, arns.previous],
    ] as const) {
      const v = vault();
      const credential = await open(await jweOf(VISA, to, String(to.kid)), v.instance);
      expect(credential.kind).toBe('token');
      expect(v.decrypted).toEqual([arn]);
      expect(v.logger.warn).not.toHaveBeenCalled();
    }
  });

  it('Visa’s <serial>|<subject DN> registered for the previous key: one Decrypt, with that key only', async () => {
    const v = vault({ networkKids: { [PREVIOUS]: [VISA_NETWORK_KID] } });
    await open(await jweOf(VISA, recipient.previous), v.instance);
    expect(v.decrypted).toEqual([arns.previous]);
    expect(v.logger.warn).not.toHaveBeenCalled();
  });

  it('Mastercard’s fingerprint registered for the current key: one Decrypt', async () => {
    const v = vault({ networkKids: { [CURRENT]: [MASTERCARD_NETWORK_KID], [PREVIOUS]: [VISA_NETWORK_KID] } });
    await open(await jweOf(MASTERCARD, recipient.current), v.instance);
    expect(v.decrypted).toEqual([arns.current]);
  });

  it('a registered kid whose key does not open the JWE is 422 after that one Decrypt (no trial)', async () => {
    const v = vault({ networkKids: { [CURRENT]: [MASTERCARD_NETWORK_KID] } });
    const jwe = await jweOf(MASTERCARD, recipient.previous); // registered for current, made for previous
    await expect(open(jwe, v.instance)).rejects.toBeInstanceOf(CheckoutDecryptionFailedError);
    expect(v.decrypted).toEqual([arns.current]);
  });
});

describe('unknown kid: each configured key, current first', () => {
  it('the current key opens it: one Decrypt, and the match is logged (ids only) so operators can register it', async () => {
    const v = vault();
    await open(await jweOf(VISA, recipient.current), v.instance);
    expect(v.decrypted).toEqual([arns.current]);
    expect(v.logger.warn).toHaveBeenCalledTimes(1);
    const [message, fields] = v.logger.warn.mock.calls[0]!;
    expect(message).toMatch(/decrypted it by trial/);
    expect(fields).toMatchObject({ networkKid: VISA_NETWORK_KID, payloadKeyId: CURRENT, payloadKid: recipient.current.kid, payloadKeyStatus: 'current' });
    expect(Object.keys(fields as object).sort()).toEqual(['hint', 'networkKid', 'payloadKeyId', 'payloadKeyStatus', 'payloadKid']);
  });

  it('the previous key opens it: current is asked first, then previous (one Decrypt each)', async () => {
    const v = vault();
    const credential = await open(await jweOf(MASTERCARD, recipient.previous), v.instance);
    expect(credential.cryptogramType).toBe('CARD_APPLICATION_CRYPTOGRAM_SHORT_FORM');
    expect(v.decrypted).toEqual([arns.current, arns.previous]);
    expect(v.logger.warn.mock.calls[0]![1]).toMatchObject({ networkKid: MASTERCARD_NETWORK_KID, payloadKeyId: PREVIOUS, payloadKeyStatus: 'previous' });
  });

  it('a kid registered for nothing but a thumbprint-shaped lie is tried too (it is only a label)', async () => {
    const v = vault();
    await open(await jweOf(VISA, recipient.previous, String(recipient.current.kid).replace(/.$/, 'x')), v.instance);
    expect(v.decrypted).toEqual([arns.current, arns.previous]);
  });

  it('no configured key opens it (encrypted to a foreign key): 422 CHECKOUT_DECRYPTION_FAILED after one Decrypt per key', async () => {
    const v = vault({ networkKids: { [PREVIOUS]: ['some-other-kid'] } });
    await expect(open(await jweOf(VISA, recipient.foreign), v.instance)).rejects.toBeInstanceOf(CheckoutDecryptionFailedError);
    expect(v.decrypted).toEqual([arns.current, arns.previous]);
    expect(v.logger.warn).toHaveBeenCalledWith(expect.stringMatching(/no configured key/), { networkKid: VISA_NETWORK_KID, keysTried: 2 });
  });

  it.each(['ThrottlingException', 'KMSInternalException', 'TimeoutError'])(
    'KMS %s on the first trial Decrypt is 503 and the next key is not tried',
    async (name) => {
      const v = vault({ failDecrypt: { call: 1, error: kmsError(name) } });
      await expect(open(await jweOf(VISA, recipient.previous), v.instance)).rejects.toBeInstanceOf(DependencyUnavailableError);
      expect(v.decrypted).toEqual([arns.current]);
    },
  );

  it('a KMS fault on the second key (after the first said "not mine") is 503, not 422', async () => {
    const v = vault({ failDecrypt: { call: 2, error: kmsError('ThrottlingException') } });
    await expect(open(await jweOf(VISA, recipient.foreign), v.instance)).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(v.decrypted).toEqual([arns.current, arns.previous]);
  });

  it('our misconfiguration during the trial (AccessDenied) is 500 and stops it', async () => {
    const v = vault({ failDecrypt: { call: 1, error: kmsError('AccessDeniedException') } });
    await expect(open(await jweOf(VISA, recipient.previous), v.instance)).rejects.toBeInstanceOf(InternalError);
    expect(v.decrypted).toEqual([arns.current]);
  });

  it('one KMS key listed twice (by id and by ARN) is asked once in the trial', async () => {
    const client = kms();
    const send = vi.spyOn(client, 'send');
    const v = new PayloadKeyVault(client, [CURRENT, PREVIOUS, arns.previous], { logger: { info: vi.fn(), warn: vi.fn() } });
    await expect(open(await jweOf(VISA, recipient.foreign), v)).rejects.toBeInstanceOf(CheckoutDecryptionFailedError);
    expect(send.mock.calls.filter(([c]) => c instanceof DecryptCommand).map(([c]) => (c as DecryptCommand).input.KeyId)).toEqual([arns.current, arns.previous]);
  });

  it('keys whose modulus differs from the encrypted key’s length cost no Decrypt', async () => {
    const { KeyMetadata } = await kms().send(new CreateKeyCommand({ KeySpec: 'RSA_3072', KeyUsage: 'ENCRYPT_DECRYPT' }));
    const client = kms();
    const send = vi.spyOn(client, 'send');
    const v = new PayloadKeyVault(client, [KeyMetadata!.Arn!, PREVIOUS], { logger: { info: vi.fn(), warn: vi.fn() } });
    await open(await jweOf(VISA, recipient.previous), v);
    expect(send.mock.calls.filter(([c]) => c instanceof DecryptCommand).map(([c]) => (c as DecryptCommand).input.KeyId)).toEqual([arns.previous]);
  });
});

/**
 * SPEC §4.3 step 5 / RFC 7516 §4.1.6: `kid` is optional. A JWE without one goes to the same
 * trial as an unknown kid: current first, at most one Decrypt per configured key. Every
 * key-wrap algorithm and content encryption the service accepts.
 */
describe('no kid: the same trial as an unknown kid', () => {
  const combos = (['RSA-OAEP', 'RSA-OAEP-256'] as const).flatMap((alg) => (['A128GCM', 'A256GCM', 'A128CBC-HS256'] as const).map((enc) => [alg, enc] as const));
  /** A JWE whose protected header has no `kid` at all. */
  const kidless = async (alg: 'RSA-OAEP' | 'RSA-OAEP-256', enc: string, to: JWK, message: string) => {
    const key = await importJWK({ ...to, alg: undefined, use: undefined, kid: undefined } as JWK, alg);
    const jwe = await new CompactEncrypt(new TextEncoder().encode(message)).setProtectedHeader({ alg, enc }).encrypt(key);
    expect(JSON.parse(Buffer.from(jwe.split('.')[0]!, 'base64url').toString())).toEqual({ alg, enc });
    return jwe;
  };
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

  it.each(combos)('%s + %s to the previous key: current asked, then previous; the match logged at info', async (alg, enc) => {
    const v = vault({ networkKids: { [CURRENT]: [VISA_NETWORK_KID] } });
    const message = `{"kidless":"${alg} ${enc}"}`;
    expect(text(await decryptCheckoutJwe(await kidless(alg, enc, recipient.previous, message), v.instance))).toBe(message);
    expect(v.decrypted).toEqual([arns.current, arns.previous]);
    expect(v.logger.warn).not.toHaveBeenCalled(); // no kid: nothing to register
    expect(v.logger.info).toHaveBeenCalledWith(expect.stringMatching(/no kid; a configured key decrypted it by trial/), {
      payloadKeyId: PREVIOUS,
      payloadKid: recipient.previous.kid,
      payloadKeyStatus: 'previous',
    });
  });

  it.each(combos)('%s + %s to the current key: one Decrypt', async (alg, enc) => {
    const v = vault();
    expect(text(await decryptCheckoutJwe(await kidless(alg, enc, recipient.current, '{"n":1}'), v.instance))).toBe('{"n":1}');
    expect(v.decrypted).toEqual([arns.current]);
  });

  it.each(combos)('%s + %s to a key we do not hold: 422 after one Decrypt per configured key', async (alg, enc) => {
    const v = vault();
    const error = await decryptCheckoutJwe(await kidless(alg, enc, recipient.foreign, '{}'), v.instance).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckoutDecryptionFailedError);
    expect(v.decrypted).toEqual([arns.current, arns.previous]);
    expect(v.logger.warn).toHaveBeenCalledWith('payload JWE has no kid and no configured key decrypts it', { keysTried: 2 });
  });

  it('a KMS fault during a kid-less trial is 503 and stops it', async () => {
    const v = vault({ failDecrypt: { call: 1, error: kmsError('ThrottlingException') } });
    const jwe = await kidless('RSA-OAEP-256', 'A256GCM', recipient.previous, '{}');
    await expect(decryptCheckoutJwe(jwe, v.instance)).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(v.decrypted).toEqual([arns.current]);
  });
});
