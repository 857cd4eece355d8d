import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks signatures (SPEC §4.15): `webhook-signature` is `v1,<base64 HMAC-SHA256
 * of "id.timestamp.body">`, one per secret, separated by a single space, so that during a
 * secret rotation a receiver that still knows only the previous secret keeps verifying.
 * The HMAC is the `standardwebhooks` package's own, so receivers using it agree byte for byte.
 */
export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** `whsec_` + base64 of 24–64 random bytes (the Standard Webhooks recommendation). */
const SECRET = /^whsec_([A-Za-z0-9+/]+={0,2})$/;
const MIN_SECRET_BYTES = 24;
const MAX_SECRET_BYTES = 64;
/** Printable ASCII without spaces or dots: the id is a header value and the first field of the signed content. */
const MESSAGE_ID = /^[\x21-\x2d\x2f-\x7e]{1,256}$/;

/** A new signing secret: 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function isSigningSecret(secret: string): boolean {
  const base64 = SECRET.exec(secret)?.[1];
  if (base64 === undefined || base64.length % 4 !== 0) return false;
  const bytes = Buffer.from(base64, 'base64').length;
  return bytes >= MIN_SECRET_BYTES && bytes <= MAX_SECRET_BYTES;
}

export function signatureHeaders(input: { id: string; timestamp: Date; body: string; secrets: readonly string[] }): SignatureHeaders {
  const { id, timestamp, body, secrets } = input;
  // Errors name the problem, never the secret.
  if (secrets.length === 0) throw new TypeError('at least one webhook signing secret is required');
  secrets.forEach((secret, index) => {
    if (!isSigningSecret(secret)) throw new TypeError(`webhook signing secret #${index} is not a whsec_ secret of 24–64 bytes`);
  });
  if (!MESSAGE_ID.test(id)) throw new TypeError('the webhook id must be 1–256 printable characters without spaces or dots');
  if (Number.isNaN(timestamp.getTime())) throw new TypeError('the webhook timestamp is not a valid date');
  if (typeof body !== 'string') throw new TypeError('the webhook body must be the exact string that is sent');
  return {
    'webhook-id': id,
    // Epoch seconds, truncated the way the library truncates when it signs.
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, timestamp, body)).join(' '),
  };
}
