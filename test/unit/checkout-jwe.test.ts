import { constants, createCipheriv, createPrivateKey, createPublicKey, generateKeyPairSync, publicEncrypt, randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { CompactEncrypt } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { decryptCheckoutJwe, decryptJweContent, type ContentKeyUnwrapper } from '../../lib/core/checkout/jwe.js';
import { verifyCheckoutJws } from '../../lib/core/checkout/jws.js';
import { localUnwrapper } from '../support/local-unwrapper.js';
import { maskedView, parseDecryptedPayload, resolveEci } from '../../lib/core/checkout/payment-data.js';
import { parseCheckoutRequest } from '../../lib/core/checkout/sdk-result.js';
import { CheckoutDecryptionFailedError, DependencyUnavailableError } from '../../lib/core/errors.js';
import { b64u, failure, flipSegment, json, MAX_AGE, networkResolver, now, recipientKey, recipientUnwrapper, vectors } from './checkout-fixtures.js';

const kid = vectors.recipientKid;
const recipientPublicKey = createPublicKey(recipientKey);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const encode = (value: string) => new TextEncoder().encode(value);

/** Asserts the one client-facing failure, and the internal reason in `cause`. */
async function rejects(compact: string, reason: RegExp, unwrapper: ContentKeyUnwrapper = recipientUnwrapper) {
  const error = await failure(() => decryptCheckoutJwe(compact, unwrapper));
  expect(error).toBeInstanceOf(CheckoutDecryptionFailedError);
  expect((error as Error).message).toBe('The checkout payload could not be decrypted.');
  expect(String(((error as Error).cause as Error).message)).toMatch(reason);
  return error as CheckoutDecryptionFailedError;
}

/**
 * A GCM JWE built by hand, so that policy violations (zip, crit, no kid, odd IV) come with a
 * valid tag: the rejection then proves the guard, not a failed decryption.
 */
function buildJwe(header: Record<string, unknown>, plaintext: Uint8Array, iv: Uint8Array = randomBytes(12)): string {
  const cek = randomBytes(header.enc === 'A128GCM' ? 16 : 32);
  const oaepHash = header.alg === 'RSA-OAEP' ? 'sha1' : 'sha256';
  const encryptedKey = publicEncrypt({ key: recipientPublicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash }, cek);
  const protectedHeader = json(header);
  const cipher = createCipheriv(cek.length === 16 ? 'aes-128-gcm' : 'aes-256-gcm', cek, iv);
  cipher.setAAD(Buffer.from(protectedHeader, 'ascii'));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return [protectedHeader, b64u(encryptedKey), b64u(iv), b64u(ciphertext), b64u(cipher.getAuthTag())].join('.');
}
const goodHeader = { alg: 'RSA-OAEP-256', enc: 'A256GCM', kid };

describe('decryptCheckoutJwe with the real vectors', () => {
  it.each(vectors.cases.map((c) => [c.name, c] as const))('%s decrypts to decryptedPayload', async (_n, vector) => {
    const plaintext = await decryptCheckoutJwe(vector.jwsPayload.encryptedPayload, recipientUnwrapper);
    expect(JSON.parse(text(plaintext))).toEqual(vector.decryptedPayload);
  });

  it.each(vectors.cases.map((c) => [c.name, c] as const))('%s: request → JWS → JWE → credential', async (_n, vector) => {
    const request = parseCheckoutRequest({ checkoutResponse: vector.sdkResult });
    const verified = await verifyCheckoutJws(request.jws, networkResolver, { maxAgeSeconds: MAX_AGE, now });
    const credential = parseDecryptedPayload(await decryptCheckoutJwe(verified.payload.encryptedPayload, recipientUnwrapper));
    const { decryptedPayload } = vector;
    expect(credential).toEqual({
      kind: 'token',
      number: decryptedPayload.token.paymentToken,
      expiryMonth: '12',
      expiryYear: '2029',
      cryptogram: decryptedPayload.dynamicData[0]!.dynamicDataValue,
      cryptogramType: 'CARD_APPLICATION_CRYPTOGRAM_LONG_FORM',
      eci: decryptedPayload.eci,
      paymentAccountReference: decryptedPayload.paymentAccountReference,
    });
    expect(resolveEci(credential, verified.payload.assuranceData?.eci, 'VISA')).toBe(decryptedPayload.eci);
    expect(maskedView(credential)).toEqual({ lastFour: '3478', expiry: '2029-12' });
  });
});

describe('RFC 7516 known answers', () => {
  // RFC 7516 Appendix A.1: RSA-OAEP + A256GCM, with the published private key and CEK.
  const a1Key = createPrivateKey({
    format: 'jwk',
    key: {
      kty: 'RSA',
      n: 'oahUIoWw0K0usKNuOR6H4wkf4oBUXHTxRvgb48E-BVvxkeDNjbC4he8rUWcJoZmds2h7M70imEVhRU5djINXtqllXI4DFqcI1DgjT9LewND8MW2Krf3Spsk_ZkoFnilakGygTwpZ3uesH-PFABNIUYpOiN15dsQRkgr0vEhxN92i2asbOenSZeyaxziK72UwxrrKoExv6kc5twXTq4h-QChLOln0_mtUZwfsRaMStPs6mS6XrgxnxbWhojf663tuEQueGC-FCMfra36C9knDFGzKsNa7LZK2djYgyD3JR_MB_4NUJW_TqOQtwHYbxevoJArm-L5StowjzGy-_bq6Gw',
      e: 'AQAB',
      d: 'kLdtIj6GbDks_ApCSTYQtelcNttlKiOyPzMrXHeI-yk1F7-kpDxY4-WY5NWV5KntaEeXS1j82E375xxhWMHXyvjYecPT9fpwR_M9gV8n9Hrh2anTpTD93Dt62ypW3yDsJzBnTnrYu1iwWRgBKrEYY46qAZIrA2xAwnm2X7uGR1hghkqDp0Vqj3kbSCz1XyfCs6_LehBwtxHIyh8Ripy40p24moOAbgxVw3rxT_vlt3UVe4WO3JkJOzlpUf-KTVI2Ptgm-dARxTEtE-id-4OJr0h-K-VFs3VSndVTIznSxfyrj8ILL6MG_Uv8YAu7VILSB3lOW085-4qE3DzgrTjgyQ',
      p: '1r52Xk46c-LsfB5P442p7atdPUrxQSy4mti_tZI3Mgf2EuFVbUoDBvaRQ-SWxkbkmoEzL7JXroSBjSrK3YIQgYdMgyAEPTPjXv_hI2_1eTSPVZfzL0lffNn03IXqWF5MDFuoUYE0hzb2vhrlN_rKrbfDIwUbTrjjgieRbwC6Cl0',
      q: 'wLb35x7hmQWZsWJmB_vle87ihgZ19S8lBEROLIsZG4ayZVe9Hi9gDVCOBmUDdaDYVTSNx_8Fyw1YYa9XGrGnDew00J28cRUoeBB_jKI1oma0Orv1T9aXIWxKwd4gvxFImOWr3QRL9KEBRzk2RatUBnmDZJTIAfwTs0g68UZHvtc',
      dp: 'ZK-YwE7diUh0qR1tR7w8WHtolDx3MZ_OTowiFvgfeQ3SiresXjm9gZ5KLhMXvo-uz-KUJWDxS5pFQ_M0evdo1dKiRTjVw_x4NyqyXPM5nULPkcpU827rnpZzAJKpdhWAgqrXGKAECQH0Xt4taznjnd_zVpAmZZq60WPMBMfKcuE',
      dq: 'Dq0gfgJ1DdFGXiLvQEZnuKEN0UUmsJBxkjydc3j4ZYdBiMRAy86x0vHCjywcMlYYg4yoC4YZa9hNVcsjqA3FeiL19rk8g6Qn29Tt0cj8qqyFpz9vNDBUfCAiJVeESOjJDZPYHdHY8v1b-o-Z2X5tvLx-TCekf7oxyeKDUqKWjis',
      qi: 'VIMpMYbPf47dT1w_zDUXfPimsSegnMOA1zTaX7aGk_8urY6R8-ZW1FxU7AlWAyLWybqq6t16VFd7hQd0y6flUK4SlOydB61gwanOsXGOAOv82cHq0E3eL4HrtZkUuKvnPrMnsUUFlfUdybVzxyjz9JF_XyaY14ardLSjf4L_FNY',
    },
  });
  const a1 = [
    'eyJhbGciOiJSU0EtT0FFUCIsImVuYyI6IkEyNTZHQ00ifQ',
    'OKOawDo13gRp2ojaHV7LFpZcgV7T6DVZKTyKOMTYUmKoTCVJRgckCL9kiMT03JGeipsEdY3mx_etLbbWSrFr05kLzcSr4qKAq7YN7e9jwQRb23nfa6c9d-StnImGyFDbSv04uVuxIp5Zms1gNxKKK2Da14B8S4rzVRltdYwam_lDp5XnZAYpQdb76FdIKLaVmqgfwX7XWRxv2322i-vDxRfqNzo_tETKzpVLzfiwQyeyPGLBIO56YJ7eObdv0je81860ppamavo35UgoRdbYaBcoh9QcfylQr66oc6vFWXRcZ_ZT2LawVCWTIy3brGPi6UklfCpIMfIjf7iGdXKHzg',
    '48V1_ALb6US04U3b',
    '5eym8TW_c8SuK0ltJ3rpYIzOeDQz7TALvtu6UG9oMo4vpzs9tX_EFShS8iB7j6jiSdiwkIr3ajwQzaBtQD_A',
    'XFBoMYUZodetZdvTiFvSkQ',
  ] as const;
  const a1Cek = [
    177, 161, 244, 128, 84, 143, 225, 115, 63, 180, 3, 255, 107, 154, 212, 246, 138, 7, 110, 91, 112, 46, 34, 105, 47, 130, 203, 46, 122, 234, 64, 252,
  ];
  // RFC 7516 Appendix A.2: RSA1_5 + A128CBC-HS256 (the CEK is published in A.2.2).
  const a2 = [
    'eyJhbGciOiJSU0ExXzUiLCJlbmMiOiJBMTI4Q0JDLUhTMjU2In0',
    'UGhIOguC7IuEvf_NPVaXsGMoLOmwvc1GyqlIKOK1nN94nHPoltGRhWhw7Zx0-kFm1NJn8LE9XShH59_i8J0PH5ZZyNfGy2xGdULU7sHNF6Gp2vPLgNZ__deLKxGHZ7PcHALUzoOegEI-8E66jX2E4zyJKx-YxzZIItRzC5hlRirb6Y5Cl_p-ko3YvkkysZIFNPccxRU7qve1WYPxqbb2Yw8kZqa2rMWI5ng8OtvzlV7elprCbuPhcCdZ6XDP0_F8rkXds2vE4X-ncOIM8hAYHHi29NX0mcKiRaD0-D-ljQTP-cFPgwCp6X-nZZd9OHBv-B3oWh2TbqmScqXMR4gp_A',
    'AxY8DCtDaGlsbGljb3RoZQ',
    'KDlTtXchhZTGufMYmOYGS4HffxPSUrfmqCHXaI9wOGY',
    '9hH0vgRfYgPnAHOd8stkvw',
  ] as const;
  const a2Cek = [
    4, 211, 31, 197, 84, 157, 252, 254, 11, 100, 157, 250, 63, 170, 106, 206, 107, 124, 212, 45, 111, 107, 9, 219, 200, 177, 0, 240, 143, 156, 44, 207,
  ];
  const bytes = (segment: string) => Buffer.from(segment, 'base64url');
  const aad = (segment: string) => Buffer.from(segment, 'ascii');

  it('A.1: the local unwrapper (RSA-OAEP, SHA-1) recovers the published CEK and the content decrypts', async () => {
    const cek = await localUnwrapper(new Map([['a1', a1Key]])).unwrap('a1', 'RSA-OAEP', bytes(a1[1]));
    expect([...cek]).toEqual(a1Cek);
    const plaintext = decryptJweContent('A256GCM', cek, bytes(a1[2]), bytes(a1[3]), bytes(a1[4]), aad(a1[0]));
    expect(text(plaintext)).toBe('The true sign of intelligence is not knowledge but imagination.');
  });

  it('A.1 as a whole decrypts: its header has no kid (RFC 7516 makes it optional), so each key is tried', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const unwrapper = localUnwrapper(
      new Map([
        ['other', other],
        ['a1', a1Key],
      ]),
    );
    expect(text(await decryptCheckoutJwe(a1.join('.'), unwrapper))).toBe('The true sign of intelligence is not knowledge but imagination.');
  });

  it('A.2: A128CBC-HS256 content decrypts with the published CEK (MAC, then CBC)', () => {
    const decrypt = (tag: Uint8Array) => decryptJweContent('A128CBC-HS256', new Uint8Array(a2Cek), bytes(a2[2]), bytes(a2[3]), tag, aad(a2[0]));
    expect(text(decrypt(bytes(a2[4])))).toBe('Live long and prosper.');
    const badTag = Buffer.from(bytes(a2[4]));
    badTag[0] = (badTag[0] ?? 0) ^ 1;
    expect(() => decrypt(badTag)).toThrow('JWE authentication failed');
  });

  it('A.2 as a whole is refused: RSA1_5 is not an allowed alg', async () => {
    await rejects(a2.join('.'), /unsupported alg/);
  });
});

describe('round trips with jose CompactEncrypt', () => {
  const combos = (['RSA-OAEP', 'RSA-OAEP-256'] as const).flatMap((alg) => (['A128GCM', 'A256GCM', 'A128CBC-HS256'] as const).map((enc) => [alg, enc] as const));
  it.each(combos)('%s + %s', async (alg, enc) => {
    const message = encode(JSON.stringify({ hello: 'world', alg, enc }));
    const compact = await new CompactEncrypt(message).setProtectedHeader({ alg, enc, kid }).encrypt(recipientPublicKey);
    expect(await decryptCheckoutJwe(compact, recipientUnwrapper)).toEqual(message);
  });

  it.each(combos)('%s + %s without a kid', async (alg, enc) => {
    const message = encode(JSON.stringify({ hello: 'world', alg, enc }));
    const compact = await new CompactEncrypt(message).setProtectedHeader({ alg, enc }).encrypt(recipientPublicKey);
    const unwrap = vi.fn(recipientUnwrapper.unwrap);
    expect(await decryptCheckoutJwe(compact, { unwrap })).toEqual(message);
    expect(unwrap).toHaveBeenCalledWith(undefined, alg, expect.any(Uint8Array));
  });
});

describe('decryptCheckoutJwe rejects', () => {
  const segmentNames = ['protected header', 'encrypted key', 'iv', 'ciphertext', 'tag'];
  const flips = vectors.cases.flatMap((c) => segmentNames.map((name, index) => [c.name, name, index, c] as const));
  it.each(flips)('%s: a bit flip in the %s', async (_n, _s, index, vector) => {
    await rejects(flipSegment(vector.jwsPayload.encryptedPayload, index), /./);
  });

  it('a JWE for another recipient key', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const compact = vectors.cases[0]!.jwsPayload.encryptedPayload;
    await rejects(compact, /decoding error|oaep|decrypt/i, localUnwrapper(new Map([[kid, other]])));
  });

  it("an unknown recipient kid is tried against each key: ours opens it, a stranger's key does not", async () => {
    const jwe = buildJwe({ ...goodHeader, kid: 'someone-else' }, encode('{}'));
    expect(await decryptCheckoutJwe(jwe, recipientUnwrapper)).toEqual(encode('{}'));
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    await rejects(jwe, /no recipient key decrypts/, localUnwrapper(new Map([[kid, other]])));
  });

  it('enc A192GCM', async () => {
    const compact = await new CompactEncrypt(encode('{}')).setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A192GCM', kid }).encrypt(recipientPublicKey);
    await rejects(compact, /unsupported enc/);
  });

  it('alg dir', async () => {
    const compact = await new CompactEncrypt(encode('{}')).setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid }).encrypt(randomBytes(32));
    await rejects(compact, /unsupported alg/);
  });

  it('zip DEF, crit and a kid that is not a non-empty string, each with an otherwise valid tag; no kid at all decrypts', async () => {
    expect(await decryptCheckoutJwe(buildJwe(goodHeader, encode('{}')), recipientUnwrapper)).toEqual(encode('{}'));
    await rejects(buildJwe({ ...goodHeader, zip: 'DEF' }, deflateRawSync('{}')), /zip/);
    await rejects(buildJwe({ ...goodHeader, crit: ['x'], x: 1 }, encode('{}')), /crit/);
    for (const badKid of ['', 5, null, ['k'], {}]) {
      await rejects(buildJwe({ ...goodHeader, kid: badKid }, encode('{}')), /kid is not a non-empty string/);
    }
    const { kid: _omitted, ...noKid } = goodHeader;
    expect(await decryptCheckoutJwe(buildJwe(noKid, encode('{}')), recipientUnwrapper)).toEqual(encode('{}'));
  });

  it('a GCM IV that is not 12 bytes, and a short tag', async () => {
    await rejects(buildJwe(goodHeader, encode('{}'), randomBytes(16)), /IV length/);
    const segments = buildJwe(goodHeader, encode('{}')).split('.');
    segments[4] = b64u(Buffer.from(segments[4]!, 'base64url').subarray(0, 12));
    await rejects(segments.join('.'), /tag length/);
  });

  it('4 and 6 segments, padding, non-canonical base64url, a non-object header', async () => {
    const compact = vectors.cases[0]!.jwsPayload.encryptedPayload;
    await rejects(compact.split('.').slice(0, 4).join('.'), /4 segments/);
    await rejects(`${compact}.AA`, /6 segments/);
    await rejects(`${compact}==`, /base64url/);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = compact.at(-1)!;
    const sameBytes = compact.slice(0, -1) + alphabet[alphabet.indexOf(last) ^ 1];
    expect(Buffer.from(sameBytes.split('.')[4]!, 'base64url')).toEqual(Buffer.from(compact.split('.')[4]!, 'base64url'));
    await rejects(sameBytes, /canonical/);
    await rejects([json([1]), ...compact.split('.').slice(1)].join('.'), /not a JSON object/);
  });

  it('a CEK of the wrong length exactly like a bad tag', async () => {
    const compact = vectors.cases[0]!.jwsPayload.encryptedPayload;
    const short: ContentKeyUnwrapper = { unwrap: async () => randomBytes(24) };
    const wrongLength = await rejects(compact, /authentication failed/, short);
    const badTag = await rejects(flipSegment(compact, 4), /authentication failed/);
    expect(wrongLength.message).toBe(badTag.message);
    expect((wrongLength.cause as Error).message).toBe((badTag.cause as Error).message);
  });

  it('an unwrapper failure, but a DependencyUnavailableError passes through unchanged', async () => {
    const compact = vectors.cases[0]!.jwsPayload.encryptedPayload;
    const kmsRefuses: ContentKeyUnwrapper = { unwrap: async () => Promise.reject(new Error('InvalidCiphertextException')) };
    await rejects(compact, /InvalidCiphertext/, kmsRefuses);
    const outage = new DependencyUnavailableError(undefined, { cause: new Error('KMS throttled') });
    expect(await failure(() => decryptCheckoutJwe(compact, { unwrap: async () => Promise.reject(outage) }))).toBe(outage);
  });

  it('returns an empty plaintext as is (the payload parser rejects it)', async () => {
    expect(await decryptCheckoutJwe(buildJwe(goodHeader, new Uint8Array(0)), recipientUnwrapper)).toEqual(new Uint8Array(0));
  });
});
