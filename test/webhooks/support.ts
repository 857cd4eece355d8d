import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks signing as a receiver's library does it: HMAC-SHA256 over
 * `id.timestamp.body` with the base64-decoded part of `whsec_…` as the key. Checked against
 * the specification's published test vector in config-secrets.test.ts.
 */
export function standardWebhooksSignature(secret: string, id: string, timestamp: number, body: string): string {
  if (!secret.startsWith('whsec_')) throw new Error('not a whsec_ secret');
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** Whether a string is a well-formed whsec_ secret: canonical base64 of exactly 32 bytes. */
export function isStandardWebhooksSecret(secret: unknown): boolean {
  if (typeof secret !== 'string' || !/^whsec_[A-Za-z0-9+/]{43}=$/.test(secret)) return false;
  const raw = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return raw.length === 32 && raw.toString('base64') === secret.slice('whsec_'.length);
}
