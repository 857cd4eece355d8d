import type { RsaEncryptionJwk } from '../jwe.js';
import { SdkError } from './types.js';

export type CardKey = RsaEncryptionJwk & { kid: string };

/**
 * The key Visa issued for encrypting new cards, from the JWKS the operator serves at
 * `visa-card-key` (CLICK_TO_PAY_SDK_URLS; the page's CSP admits its origin). Fetched once per
 * page; a failed fetch is tried again next time. Without it a Visa card cannot be added
 * (UNKNOWN): the card is never encrypted to any other key, which Visa could not open.
 */
export class VisaCardKey {
  private key: Promise<CardKey> | undefined;

  constructor(private readonly url: string | undefined) {}

  get(): Promise<CardKey> {
    const url = this.url;
    if (!url) return Promise.reject(new SdkError('UNKNOWN'));
    this.key ??= fetch(url, { credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer' })
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(`HTTP ${response.status}`))))
      .then(firstEncryptionKey);
    const pending = this.key;
    pending.catch(() => {
      if (this.key === pending) this.key = undefined;
    });
    return pending.catch(() => Promise.reject(new SdkError('UNKNOWN')));
  }
}

/** A JWKS (or a lone JWK): its first RSA key for encryption that carries a kid. */
function firstEncryptionKey(body: unknown): CardKey {
  const list = body && typeof body === 'object' && Array.isArray((body as { keys?: unknown }).keys) ? (body as { keys: unknown[] }).keys : [body];
  const key = list.find((k): k is Record<string, unknown> => {
    if (!k || typeof k !== 'object') return false;
    const jwk = k as Record<string, unknown>;
    return (
      jwk.kty === 'RSA' && (jwk.use === undefined || jwk.use === 'enc') && typeof jwk.kid === 'string' && typeof jwk.n === 'string' && typeof jwk.e === 'string'
    );
  });
  if (!key) throw new Error('no RSA encryption key with a kid');
  return key as unknown as CardKey;
}
