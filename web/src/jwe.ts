/**
 * Compact JWE (RFC 7516) with WebCrypto only: alg RSA-OAEP-256 (RSAES-OAEP, SHA-256, MGF1
 * SHA-256) wraps a random 128-bit content-encryption key; enc A128GCM encrypts the plaintext
 * with a 96-bit random IV; the AAD is the ASCII of the base64url protected header.
 * Used to encrypt card data in the browser before it leaves the page.
 */

export interface RsaEncryptionJwk {
  kty: 'RSA' | string;
  n: string;
  e: string;
  kid?: string;
}

const encoder = new TextEncoder();

export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export async function encryptCompactJwe(plaintext: string | Uint8Array, jwk: RsaEncryptionJwk, kid: string): Promise<string> {
  if (jwk.kty !== 'RSA' || !jwk.n || !jwk.e) throw new Error('An RSA public key is required');
  const subtle = globalThis.crypto.subtle;
  const header = base64url(encoder.encode(JSON.stringify({ alg: 'RSA-OAEP-256', enc: 'A128GCM', kid })));
  const recipient = await subtle.importKey(
    'jwk',
    { kty: 'RSA', n: jwk.n, e: jwk.e, alg: 'RSA-OAEP-256', ext: true },
    { name: 'RSA-OAEP', hash: 'SHA-256' },
    false,
    ['encrypt'],
  );
  const cek = globalThis.crypto.getRandomValues(new Uint8Array(16));
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
  const encryptedKey = new Uint8Array(await subtle.encrypt({ name: 'RSA-OAEP' }, recipient, cek));
  const contentKey = await subtle.importKey('raw', cek, { name: 'AES-GCM' }, false, ['encrypt']);
  const data = typeof plaintext === 'string' ? encoder.encode(plaintext) : new Uint8Array(plaintext);
  const sealed = new Uint8Array(await subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(header), tagLength: 128 }, contentKey, data));
  cek.fill(0);
  const ciphertext = sealed.subarray(0, sealed.length - 16);
  const tag = sealed.subarray(sealed.length - 16);
  return [header, base64url(encryptedKey), base64url(iv), base64url(ciphertext), base64url(tag)].join('.');
}
