import { InvalidRedirectUrlError } from '../errors.js';

/**
 * Where the hosted payment page may send a shopper back to (SPEC 4.7 `redirectOrigins`, 4.8
 * `returnUrl` / `cancelUrl`). Pure: the WHATWG URL parser is the one browsers use, so what is
 * checked here is the origin the browser will really navigate to.
 *
 * - https, or http only on a loopback host (localhost, 127.0.0.0/8, [::1]) for development;
 * - no username or password (`https://shop.example.com@evil.example` is evil.example);
 * - no fragment at all (`https://evil.example#https://shop.example.com`);
 * - no whitespace, control character or backslash anywhere: the parser silently drops tabs and
 *   newlines and reads `\` as `/`, so such a URL is not what it looks like;
 * - the origin, normalised (case, default port, punycode, one trailing dot of the host), equals
 *   one of the merchant's origins exactly: no suffix, prefix or wildcard matching.
 */
export type RedirectUrlProblem = 'MALFORMED' | 'SCHEME' | 'CREDENTIALS' | 'FRAGMENT' | 'ORIGIN_NOT_ALLOWED';

export type RedirectField = 'returnUrl' | 'cancelUrl';

/** Characters the URL parser removes or reinterprets rather than refuses. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this refuses
const DECEPTIVE = /[\u0000-\u0020\u007f-\u00a0\\\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff]/;
/** A host we can compare: DNS labels (after punycode), an IPv4 address, or an IPv6 literal. */
const COMPARABLE_HOST = /^(?:(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]*[a-z0-9])?|\[[0-9a-f:.]+\])$/;
const BARE_ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@]+\/?$/i;

export function isLoopbackHost(hostname: string): boolean {
  const host = withoutTrailingDot(hostname);
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** `https://shop.example.com` from a parsed URL: lower case, no default port, no trailing dot. */
function originOf(url: URL): string | undefined {
  const host = withoutTrailingDot(url.hostname);
  if (!COMPARABLE_HOST.test(host)) return undefined;
  return `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`;
}

function withoutTrailingDot(hostname: string): string {
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
}

function parse(raw: string): URL | undefined {
  if (DECEPTIVE.test(raw)) return undefined;
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

const schemeAllowed = (url: URL) => url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));

/**
 * 4.7: the normalised form of one `redirectOrigins` entry, or undefined when it is not a bare
 * origin (scheme and host, optionally a port and one trailing slash; nothing else).
 */
export function normaliseOrigin(raw: string): string | undefined {
  if (!BARE_ORIGIN.test(raw)) return undefined;
  const url = parse(raw);
  if (!url || !schemeAllowed(url) || url.username || url.password) return undefined;
  return originOf(url);
}

/** Why `raw` may not be used as a redirect target of a merchant allowing `allowedOrigins`; undefined when it may. */
export function redirectUrlProblem(raw: string, allowedOrigins: readonly string[]): RedirectUrlProblem | undefined {
  const url = parse(raw);
  if (!url) return 'MALFORMED';
  if (!schemeAllowed(url)) return 'SCHEME';
  if (url.username || url.password) return 'CREDENTIALS';
  if (raw.includes('#')) return 'FRAGMENT';
  const origin = originOf(url);
  if (!origin || !allowedOrigins.includes(origin)) return 'ORIGIN_NOT_ALLOWED';
  return undefined;
}

const EXPLANATION: Record<RedirectUrlProblem, string> = {
  MALFORMED: 'it is not an absolute URL (or contains whitespace, control characters or backslashes)',
  SCHEME: 'it must use https (http only on a loopback host)',
  CREDENTIALS: 'it must not contain a username or password',
  FRAGMENT: 'it must not contain a fragment (#…)',
  ORIGIN_NOT_ALLOWED: 'its origin is not one of the merchant’s redirectOrigins',
};

/**
 * The URL as it will be stored and navigated to (the parser's serialisation), or
 * InvalidRedirectUrlError (422). The detail names the field and the rule, never the URL.
 */
export function allowedRedirectUrl(field: RedirectField, raw: string, allowedOrigins: readonly string[]): string {
  const problem = redirectUrlProblem(raw, allowedOrigins);
  if (problem) throw new InvalidRedirectUrlError(`${field} is not allowed: ${EXPLANATION[problem]}.`);
  return new URL(raw).href;
}
