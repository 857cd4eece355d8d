import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import * as z from 'zod';

/**
 * What the idempotency table may hold (SPEC §1, §3: no card data, token, cryptogram or
 * secret at rest). A stored response can carry a secret — 4.9's `sessionToken`, of which
 * only the SHA-256 may be stored, and 4.8's `checkoutUrl` that contains it — and a request
 * fingerprint over a 4.4 body is a function of a card number. So both are keyed by the one
 * thing the table never holds: the Idempotency-Key itself (Powertools stores only a hash of
 * scope + key as `pk`).
 * - the request fingerprint is an HMAC, not a plain hash, so it cannot be checked against
 *   guessed card numbers;
 * - the response is sealed with AES-256-GCM, the scope as associated data.
 * Both keys come from HKDF over the Idempotency-Key: the protection is as strong as the key's
 * entropy, which is why docs/integrating/idempotency-key.md asks clients for a random UUID.
 */
export interface IdempotencySecrets {
  scope: string;
  fingerprintKey: Buffer;
  sealKey: Buffer;
}

const SALT = 'click-to-pay Idempotency-Key v1';
const SEAL_VERSION = 'v1';

export function deriveSecrets(scope: string, idempotencyKey: string): IdempotencySecrets {
  const derive = (purpose: string) => Buffer.from(hkdfSync('sha256', Buffer.from(idempotencyKey, 'utf8'), SALT, `${purpose}\n${scope}`, 32));
  return { scope, fingerprintKey: derive('request-fingerprint'), sealKey: derive('response-seal') };
}

/** HMAC-SHA-256 over a canonical form of the request: key order in JSON objects does not matter. */
export function requestFingerprint(secrets: IdempotencySecrets, request: unknown): string {
  return createHmac('sha256', secrets.fingerprintKey).update(canonicalJson(request)).digest('base64url');
}

/** A response as it is stored: `v1.<iv>.<ciphertext+tag>`, base64url. */
export function sealResponse(secrets: IdempotencySecrets, response: StoredResponse): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secrets.sealKey, iv);
  cipher.setAAD(Buffer.from(secrets.scope, 'utf8'));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(response), 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return [SEAL_VERSION, iv.toString('base64url'), sealed.toString('base64url')].join('.');
}

/** Opens what sealResponse stored; throws on anything else (a tampered or foreign record). */
export function openResponse(secrets: IdempotencySecrets, stored: unknown): StoredResponse {
  const [version, iv, sealed] = typeof stored === 'string' ? stored.split('.') : [];
  if (version !== SEAL_VERSION || !iv || !sealed) throw new Error('not a sealed idempotent response');
  const bytes = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', secrets.sealKey, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(secrets.scope, 'utf8'));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  const plain = Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
  return storedResponse.parse(JSON.parse(plain));
}

/** The part of an ApiResult that is replayed: status, JSON body and the use case's own headers. */
export const storedResponse = z.object({
  status: z.number().int().min(200).max(299),
  body: z.unknown(),
  headers: z.record(z.string(), z.string()).optional(),
});
export type StoredResponse = z.output<typeof storedResponse>;

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
