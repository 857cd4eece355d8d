import type { WebhookUrlCheck } from '../../core/ports/webhook-sender.js';
import { isIPv4, type LookupFunction } from 'node:net';
import { classifyAddress, type RefusalReason } from './address-policy.js';
import { refusalFor, resolveAll, type AddressPolicy, type LookupAll } from './host-resolution.js';

/**
 * Which URLs a merchant may register for webhooks and which hosts a delivery may connect to
 * (SPEC §4.15, SSRF). Two layers: `parseWebhookUrl`/`assertSafeWebhookUrl` when the URL is
 * configured (so the merchant gets a clear answer), and `guardedLookup` at every connection,
 * on the addresses actually used — a name that resolved to a public address yesterday may
 * resolve to 169.254.169.254 today (DNS rebinding).
 */
export type { LookupAll } from './host-resolution.js';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export type UnsafeWebhookUrlReason = 'invalid' | 'too-long' | 'scheme' | 'credentials' | 'fragment' | 'dns' | RefusalReason;

const ADDRESS_KIND: Record<RefusalReason, string> = {
  private: 'a private network',
  loopback: 'a loopback',
  'link-local': 'a link-local',
  metadata: 'a cloud metadata',
  unspecified: 'an unspecified',
  multicast: 'a multicast',
  reserved: 'a reserved',
};

const MESSAGES: Record<Exclude<UnsafeWebhookUrlReason, RefusalReason>, string> = {
  invalid: 'The webhook URL must be an absolute https:// URL.',
  'too-long': `The webhook URL must be at most ${MAX_WEBHOOK_URL_LENGTH} characters long.`,
  scheme: 'The webhook URL must use https.',
  credentials: 'The webhook URL must not contain a user name or password.',
  fragment: 'The webhook URL must not contain a fragment (#…).',
  dns: 'The webhook URL’s host name could not be resolved.',
};

/** A domain error: the message is written for the merchant and names no internal detail. */
export class UnsafeWebhookUrlError extends Error {
  readonly reason: UnsafeWebhookUrlReason;
  constructor(reason: UnsafeWebhookUrlReason, message?: string, options?: { cause?: unknown }) {
    super(message ?? (reason in MESSAGES ? MESSAGES[reason as keyof typeof MESSAGES] : addressMessage(reason as RefusalReason)), options);
    this.name = 'UnsafeWebhookUrlError';
    this.reason = reason;
  }
}

function addressMessage(reason: RefusalReason, resolved = false): string {
  const where = resolved ? 'The webhook URL’s host resolves to' : 'The webhook URL points to';
  return `${where} ${ADDRESS_KIND[reason]} address, which cannot receive webhooks.`;
}

/** `[::1]` → `::1`, `127.0.0.1` → itself; a host name → undefined. */
function ipLiteralOf(hostname: string): string | undefined {
  if (hostname.startsWith('[') && hostname.endsWith(']')) return hostname.slice(1, -1);
  return isIPv4(hostname) ? hostname : undefined;
}

/** RFC 6761: `localhost` and every name under it are the local machine. */
function isLocalhostName(hostname: string): boolean {
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * Syntax and IP-literal checks only (no DNS). Returns the parsed URL: store and deliver to
 * its `href`, which is what the checks were made on. The WHATWG parser normalises
 * `http://2130706433/`, `0x7f.1`, `0177.0.0.1`, `%31%32%37.0.0.1` to `127.0.0.1`, and
 * `[::ffff:127.0.0.1]` to `[::ffff:7f00:1]`, before anything here looks at the host.
 */
export function parseWebhookUrl(raw: string, options: { allowLoopback: boolean }): URL {
  if (typeof raw !== 'string') throw new UnsafeWebhookUrlError('invalid');
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) throw new UnsafeWebhookUrlError('too-long');
  // Whitespace and control characters are silently dropped by the parser, and `https:host`
  // or `https:\\host` are "fixed" by it: refuse them so the stored URL is the one typed.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this refuses
  if (/[\u0000-\u0020\u007f]/.test(raw) || !/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) throw new UnsafeWebhookUrlError('invalid');
  let url: URL;
  try {
    url = new URL(raw);
  } catch (error) {
    throw new UnsafeWebhookUrlError('invalid', undefined, { cause: error });
  }
  if (url.href.length > MAX_WEBHOOK_URL_LENGTH) throw new UnsafeWebhookUrlError('too-long');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UnsafeWebhookUrlError('scheme');
  if (url.username !== '' || url.password !== '') throw new UnsafeWebhookUrlError('credentials');
  if (raw.includes('#')) throw new UnsafeWebhookUrlError('fragment');

  // The address comes before the scheme: http://10.0.0.1/ is refused for what it points to.
  const literal = ipLiteralOf(url.hostname);
  let loopbackHost: boolean;
  if (literal !== undefined) {
    const verdict = classifyAddress(literal, options);
    if (!verdict.allowed) throw new UnsafeWebhookUrlError(verdict.reason);
    loopbackHost = refusalFor(literal, { allowLoopback: true, loopbackOnly: true }) === undefined;
  } else {
    loopbackHost = isLocalhostName(url.hostname);
    if (loopbackHost && !options.allowLoopback) throw new UnsafeWebhookUrlError('loopback');
  }
  if (url.protocol === 'http:' && !(options.allowLoopback && loopbackHost)) {
    throw new UnsafeWebhookUrlError(
      'scheme',
      options.allowLoopback ? 'The webhook URL must use https (http only for a loopback host such as localhost).' : undefined,
    );
  }
  return url;
}

/**
 * What the configuration endpoint calls: the syntax checks, then the host's addresses — ALL
 * of them must be allowed, since a connection may use any. A name that does not resolve
 * within a few seconds is refused ('dns'). Still only a first answer: deliveries check again.
 */
export async function assertSafeWebhookUrl(raw: string, options: { allowLoopback: boolean; lookup?: LookupAll }): Promise<URL> {
  const url = parseWebhookUrl(raw, options);
  if (ipLiteralOf(url.hostname) !== undefined) return url; // already classified; never looked up
  const policy: AddressPolicy = { allowLoopback: options.allowLoopback, loopbackOnly: url.protocol === 'http:' };
  let addresses: { address: string }[];
  try {
    addresses = await resolveAll(url.hostname, options.lookup);
  } catch (error) {
    throw new UnsafeWebhookUrlError('dns', undefined, { cause: error });
  }
  for (const { address } of addresses) {
    const reason = refusalFor(address, policy);
    if (reason === 'scheme') throw new UnsafeWebhookUrlError('scheme', 'An http webhook URL must resolve to a loopback address; use https.');
    if (reason !== undefined) throw new UnsafeWebhookUrlError(reason, addressMessage(reason, true));
  }
  return url;
}

/** The error a refused connection fails with; the sender maps its code to 'blocked-address'. */
export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKEDADDRESS';
  constructor(readonly reason: RefusalReason | 'scheme') {
    super('the host resolves to an address webhooks may not be delivered to');
    this.name = 'BlockedAddressError';
  }
}

/**
 * A `lookup` for `http.request`/`net.connect`: resolves, refuses the whole host if any
 * address is forbidden, and hands the socket only addresses that passed. Node calls it for
 * every connection it opens to a host name, so the check is on the address actually dialled.
 * (IP-literal URLs are never looked up by Node: `parseWebhookUrl` classifies those.)
 */
export function guardedLookup(options: { allowLoopback: boolean; lookup?: LookupAll; loopbackOnly?: boolean }): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    resolveAll(hostname, options.lookup).then(
      (addresses) => {
        for (const { address } of addresses) {
          const reason = refusalFor(address, options);
          if (reason !== undefined) return callback(new BlockedAddressError(reason), '');
        }
        const family = lookupOptions.family === 'IPv4' ? 4 : lookupOptions.family === 'IPv6' ? 6 : lookupOptions.family;
        const usable = family === 4 || family === 6 ? addresses.filter((answer) => answer.family === family) : addresses;
        const first = usable[0];
        if (!first) return callback(Object.assign(new Error('no address of the requested family'), { code: 'ENOTFOUND' }), '');
        if (lookupOptions.all) return callback(null, usable);
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

/** The WebhookUrlCheck port over the guard above (the system resolver unless `lookup` is given). */
export function dnsWebhookUrlCheck(options: { lookup?: LookupAll } = {}): WebhookUrlCheck {
  return {
    async check(raw, { allowLoopback }) {
      try {
        const url = await assertSafeWebhookUrl(raw, { allowLoopback, ...(options.lookup ? { lookup: options.lookup } : {}) });
        return { safe: true, url: url.href };
      } catch (error) {
        if (!(error instanceof UnsafeWebhookUrlError)) throw error;
        return { safe: false, reason: error.message };
      }
    },
  };
}
