import { compactDecrypt, decodeProtectedHeader, exportJWK, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { base64url, encryptCompactJwe } from '../../web/src/jwe.js';

describe('browser JWE (web/src/jwe.ts)', () => {
  it('encrypts RSA-OAEP-256 + A128GCM that jose compactDecrypt opens', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RSA-OAEP-256', { modulusLength: 2048, extractable: true });
    const jwk = await exportJWK(publicKey);
    const card = { primaryAccountNumber: '4111111111111111', panExpirationMonth: '12', panExpirationYear: '2030', cardSecurityCode: '123' };

    const jwe = await encryptCompactJwe(JSON.stringify(card), { kty: 'RSA', n: jwk.n!, e: jwk.e! }, 'kid-current');

    expect(jwe.split('.')).toHaveLength(5);
    expect(decodeProtectedHeader(jwe)).toEqual({ alg: 'RSA-OAEP-256', enc: 'A128GCM', kid: 'kid-current' });
    const { plaintext, protectedHeader } = await compactDecrypt(jwe, privateKey, {
      keyManagementAlgorithms: ['RSA-OAEP-256'],
      contentEncryptionAlgorithms: ['A128GCM'],
    });
    expect(protectedHeader.kid).toBe('kid-current');
    expect(JSON.parse(new TextDecoder().decode(plaintext))).toEqual(card);
    // 96-bit IV and 128-bit tag
    const [, , iv, , tag] = jwe.split('.');
    expect(Buffer.from(iv!, 'base64url')).toHaveLength(12);
    expect(Buffer.from(tag!, 'base64url')).toHaveLength(16);
  });

  it('uses a fresh key and IV each time, and the header is the AAD', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RSA-OAEP-256', { extractable: true });
    const jwk = await exportJWK(publicKey);
    const key = { kty: 'RSA', n: jwk.n!, e: jwk.e! };
    const a = await encryptCompactJwe('same', key, 'k');
    const b = await encryptCompactJwe('same', key, 'k');
    expect(a.split('.')[1]).not.toBe(b.split('.')[1]);
    expect(a.split('.')[2]).not.toBe(b.split('.')[2]);

    // Swapping the protected header (the AAD) must break the tag.
    const parts = a.split('.');
    parts[0] = base64url(new TextEncoder().encode(JSON.stringify({ alg: 'RSA-OAEP-256', enc: 'A128GCM', kid: 'other' })));
    await expect(compactDecrypt(parts.join('.'), privateKey)).rejects.toThrow();
  });

  it('refuses a non-RSA key', async () => {
    await expect(encryptCompactJwe('x', { kty: 'EC', n: '', e: '' }, 'k')).rejects.toThrow(/RSA/);
  });
});
