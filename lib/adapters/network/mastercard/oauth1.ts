import { createHash, createSign, randomBytes, type KeyObject } from 'node:crypto';

/**
 * OAuth 1.0a request signing as Mastercard's APIs require it (RFC 5849 with RSA-SHA256 and the
 * oauth_body_hash extension), following Mastercard's reference signers (github.com/Mastercard/
 * oauth1-signer-*): oauth_body_hash = base64(SHA-256(body)); the parameter string is the
 * lexicographically sorted `name=value` pairs of the query and the oauth_ parameters, values
 * as they are; the signature base string is `METHOD&enc(base URI)&enc(parameter string)`
 * with RFC 3986 encoding; the signature is RSASSA-PKCS1-v1_5 SHA-256 over it, base64, sent
 * percent-encoded in the `Authorization: OAuth …` header. test/unit/oauth1.test.ts checks
 * the base string against the reference signer's published test vector.
 */
export interface OAuthCredentials {
  /** The Mastercard Developers project's consumer key (it contains a `!`). */
  consumerKey: string;
  /** The private key of the project's signing key pair (the .p12's key, as PKCS#8 PEM). */
  signingKey: KeyObject;
}

export interface OAuthParameters {
  nonce: string;
  timestamp: number;
}

export function authorizationHeader(method: string, url: string, body: string, credentials: OAuthCredentials, fixed: OAuthParameters = fresh()): string {
  const oauth: [string, string][] = [
    ['oauth_body_hash', createHash('sha256').update(body, 'utf8').digest('base64')],
    ['oauth_consumer_key', credentials.consumerKey],
    ['oauth_nonce', fixed.nonce],
    ['oauth_signature_method', 'RSA-SHA256'],
    ['oauth_timestamp', String(fixed.timestamp)],
    ['oauth_version', '1.0'],
  ];
  const target = new URL(url);
  const query = [...target.searchParams.entries()].map(([name, value]) => [rfc3986(name), rfc3986(value)] as [string, string]);
  const base = signatureBaseString(method, baseUri(target), parameterString([...query, ...oauth]));
  const signature = createSign('RSA-SHA256').update(base, 'utf8').sign(credentials.signingKey, 'base64');
  return `OAuth ${[...oauth, ['oauth_signature', encodeURIComponent(signature)]].map(([name, value]) => `${name}="${value}"`).join(',')}`;
}

export function signatureBaseString(method: string, uri: string, parameters: string): string {
  return `${method.toUpperCase()}&${rfc3986(uri)}&${rfc3986(parameters)}`;
}

/** Sorted by name, then value (RFC 5849 §3.4.1.3.2). */
export function parameterString(pairs: readonly (readonly [string, string])[]): string {
  return [...pairs]
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

/** Scheme and host lowercased, default port dropped, no query or fragment (RFC 5849 §3.4.1.2). */
export function baseUri(url: URL): string {
  return `${url.protocol.toLowerCase()}//${url.host.toLowerCase()}${url.pathname}`;
}

/** RFC 3986 unreserved characters only: encodeURIComponent leaves !'()* alone. */
export function rfc3986(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** 16 alphanumerics (~95 bits) and the current time: replay protection at Mastercard's side. */
function fresh(): OAuthParameters {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return { nonce: [...randomBytes(16)].map((byte) => alphabet[byte % alphabet.length]).join(''), timestamp: Math.floor(Date.now() / 1000) };
}
