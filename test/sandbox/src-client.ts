import { randomBytes } from 'node:crypto';
import { CompactEncrypt, importJWK, type JWK } from 'jose';
import { handler as sandboxSrc } from '../../functions/sandbox-src/handler.js';
import { currentRecipientKey } from '../support/checkout.js';
import { invoke, type InvokeResult } from '../support/invoke.js';

/** One POST to the sandbox SRC network, as the page's sandbox SDK sends it. */
export function src(path: string, body: unknown, handler: typeof sandboxSrc = sandboxSrc): Promise<InvokeResult> {
  return invoke(handler, { method: 'POST', path: `/sandbox/src${path}`, body });
}

export const DPA = { dpaId: 'dpa-demo', dpaClientId: 'dpa-client-demo', locale: 'en_AE', cardBrands: ['visa', 'mastercard'] };

export async function newSession(): Promise<string> {
  const response = await src('/init', DPA);
  if (response.status !== 200) throw new Error(`init failed: ${response.raw}`);
  return response.body.sessionId as string;
}

/** init → lookup → OTP: a session where `identity` is authenticated. */
export async function signedIn(value = 'returning@example.com', type: 'EMAIL' | 'MOBILE_NUMBER' = 'EMAIL'): Promise<string> {
  const sessionId = await newSession();
  await src('/identity-lookup', { sessionId, identity: { type, value } });
  const validated = await src('/otp/validate', { sessionId, otp: '123456' });
  if (validated.status !== 200) throw new Error(`validate failed: ${validated.raw}`);
  return sessionId;
}

export const CARD_DATA = { primaryAccountNumber: '4111111111111111', panExpirationMonth: '12', panExpirationYear: '2030', cardSecurityCode: '123' };

/** The card JWE exactly as the page makes it (RSA-OAEP-256 + A128GCM to the 4.2 current key). */
export async function encryptCard(options: { key?: JWK; alg?: string; enc?: string } = {}): Promise<string> {
  const key = options.key ?? (await currentRecipientKey());
  const alg = options.alg ?? 'RSA-OAEP-256';
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(CARD_DATA)))
    .setProtectedHeader({ alg, enc: options.enc ?? 'A128GCM', kid: String(key.kid) })
    .encrypt(await importJWK(key, alg));
}

export async function enrollment(overrides: Record<string, unknown> = {}) {
  return {
    encryptedCard: await encryptCard(),
    brand: 'VISA',
    panBin: '411111',
    panLastFour: '1111',
    panExpirationMonth: '12',
    panExpirationYear: '2030',
    cardholderName: 'Test Buyer',
    ...overrides,
  };
}

export const randomId = () => `src_${randomBytes(32).toString('base64url')}`;
