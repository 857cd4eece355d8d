import { readFile } from 'node:fs/promises';
import { importJWK, type JWK } from 'jose';
import { withCallSignal } from '../../core/deadline.js';
import { DependencyUnavailableError } from '../../core/errors.js';
import { logger as defaultLogger, type Logger } from '../../core/ports/logger.js';
import { weakRsaKeyReason } from './rsa-key-strength.js';

export type VerificationKey = Awaited<ReturnType<typeof importJWK>>;

export interface JwksSourceOptions {
  /** Minimum time between two fetches: an unknown `kid` cannot make us hammer the issuer. */
  minRefreshIntervalMs?: number;
  /** Keys are trusted this long before a scheduled refresh. */
  maxAgeMs?: number;
  /** Per fetch; the invocation's deadline (lib/core/deadline.ts) applies as well. */
  timeoutMs?: number;
  /** First wait after a failed load; it doubles per failure, up to `minRefreshIntervalMs`. */
  initialBackoffMs?: number;
  now?: () => number;
  /** Where a key dropped at load is reported (its `kid` and why). */
  logger?: Pick<Logger, 'warn'>;
}

/** Asymmetric key types only: an `oct` entry would let a public value act as an HMAC secret. */
const ASYMMETRIC_KEY_TYPES: ReadonlySet<string> = new Set(['RSA', 'EC', 'OKP']);
/** A kid is the publisher's text: logged, but cut to this length. */
const LOGGED_KID_LENGTH = 200;

/**
 * A JSON Web Key Set loaded from an https:, http: or file: URL and cached across warm
 * invocations. Keys are chosen by `kid` only; nothing in a token header (`jku`, `x5u`,
 * `jwk`, `x5c`) can add a key.
 *
 * Fetches: the first use, a stale set (`maxAgeMs`), and an unknown `kid` at most once per
 * `minRefreshIntervalMs`. A failed load of any kind (network, timeout, non-2xx, not JSON,
 * not an object, `keys` not an array) keeps the last good set and backs off (doubling from
 * `initialBackoffMs` up to `minRefreshIntervalMs`), so an outage is not fetched on every
 * request; without any good set, requests get 503 until the next attempt is due.
 *
 * An RSA key with a public exponent other than 65537, under 2048 bits or with the ROCA
 * fingerprint (rsa-key-strength.ts) is dropped at load with a warning naming its `kid`: it
 * never resolves, so a token naming it is an unknown kid (SPEC §4.3 step 2). This applies to
 * every set, the identity provider's too: such a key is no safer there.
 *
 * Decision: kept hand-written rather than jose's createRemoteJWKSet, which does not back
 * off after a failed fetch, reads no file: URLs, and cannot tell whether a kid is cached
 * without fetching (NetworkKeyRing needs that).
 */
export class JwksSource {
  private keys = new Map<string, JWK>();
  private imported = new Map<string, Promise<VerificationKey>>();
  private loadedAt = -Infinity;
  private nextAttemptAt = -Infinity;
  private failures = 0;
  private lastFailure: unknown;
  private inflight: Promise<void> | undefined;
  private readonly minRefreshIntervalMs: number;
  private readonly maxAgeMs: number;
  private readonly timeoutMs: number;
  private readonly initialBackoffMs: number;
  private readonly now: () => number;
  private readonly logger: Pick<Logger, 'warn'>;

  constructor(
    readonly url: string,
    options: JwksSourceOptions = {},
  ) {
    if (!/^(https?|file):/.test(url)) throw new Error('JWKS URL must be https:, http: or file:');
    this.minRefreshIntervalMs = options.minRefreshIntervalMs ?? 60_000;
    this.maxAgeMs = options.maxAgeMs ?? 10 * 60_000;
    this.timeoutMs = options.timeoutMs ?? 2_000;
    this.initialBackoffMs = Math.min(options.initialBackoffMs ?? 2_000, this.minRefreshIntervalMs);
    this.now = options.now ?? Date.now;
    this.logger = options.logger ?? defaultLogger;
  }

  /**
   * The key for `kid` usable with `alg`, or undefined when the set does not have one.
   * Throws DependencyUnavailableError (503) only while no good set was ever loaded.
   */
  async resolve(kid: string, alg: string): Promise<VerificationKey | undefined> {
    const now = this.now();
    const stale = now - this.loadedAt > this.maxAgeMs;
    if ((stale || !this.keys.has(kid)) && now >= this.nextAttemptAt) await this.refresh();
    if (this.loadedAt === -Infinity) throw this.unavailable(this.now());
    return this.importKey(kid, alg);
  }

  /** The key for `kid` from a fresh cached set, without any fetch; undefined otherwise. */
  async cached(kid: string, alg: string): Promise<VerificationKey | undefined> {
    if (this.now() - this.loadedAt > this.maxAgeMs) return undefined;
    return this.importKey(kid, alg);
  }

  private async importKey(kid: string, alg: string): Promise<VerificationKey | undefined> {
    const jwk = this.keys.get(kid);
    if (!jwk || (jwk.alg !== undefined && jwk.alg !== alg) || (jwk.use !== undefined && jwk.use !== 'sig')) {
      return undefined;
    }
    const cacheKey = `${kid}\u0000${alg}`;
    let key = this.imported.get(cacheKey);
    if (!key) {
      key = importJWK(jwk, alg);
      this.imported.set(cacheKey, key);
      key.catch(() => this.imported.delete(cacheKey));
    }
    try {
      return await key;
    } catch {
      return undefined; // a key whose type does not fit the algorithm is no key for it
    }
  }

  private refresh(): Promise<void> {
    this.inflight ??= this.load().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  /** Never rejects: a failure is recorded and backed off, and the last good set stays. */
  private async load(): Promise<void> {
    try {
      const { keys, untrusted } = parseJwks(await this.fetchText());
      // Every load reports them again (at most once per refresh interval), until the
      // publisher removes them: a key someone expects to work is never dropped silently.
      for (const { kid, reason } of untrusted) {
        this.logger.warn('JWKS key not trusted: dropped', { jwksUrl: this.url, kid: kid.slice(0, LOGGED_KID_LENGTH), reason });
      }
      this.keys = keys;
      this.imported.clear();
      this.loadedAt = this.now();
      this.failures = 0;
      this.lastFailure = undefined;
      this.nextAttemptAt = this.loadedAt + this.minRefreshIntervalMs;
    } catch (cause) {
      this.failures += 1;
      this.lastFailure = cause;
      const backoff = Math.min(this.initialBackoffMs * 2 ** (this.failures - 1), this.minRefreshIntervalMs);
      this.nextAttemptAt = this.now() + backoff;
    }
  }

  private fetchText(): Promise<string> {
    return withCallSignal(this.timeoutMs, async (signal) => {
      if (this.url.startsWith('file:')) return readFile(new URL(this.url), { encoding: 'utf8', signal });
      const response = await fetch(this.url, { signal, redirect: 'error' });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.text();
    });
  }

  /** 503 whose Retry-After is when the next load will be attempted (at least 1 s). */
  private unavailable(now: number): DependencyUnavailableError {
    const retryAfterSeconds = Math.max(1, Math.ceil((this.nextAttemptAt - now) / 1000));
    return new DependencyUnavailableError(undefined, {
      cause: new Error(`JWKS unavailable: ${this.url}`, { cause: this.lastFailure }),
      retryAfterMs: retryAfterSeconds * 1000,
    });
  }
}

interface ParsedJwks {
  keys: Map<string, JWK>;
  /** Keys dropped because they are weak, by kid (not those dropped as malformed or private). */
  untrusted: { kid: string; reason: string }[];
}

/** The usable public keys of a JWKS document by `kid`; throws when the document is not a JWKS. */
function parseJwks(text: string): ParsedJwks {
  const document: unknown = JSON.parse(text);
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw new Error('JWKS document is not a JSON object');
  }
  const list: unknown = (document as { keys?: unknown }).keys;
  if (!Array.isArray(list)) throw new Error('JWKS keys is not an array');
  const keys = new Map<string, JWK>();
  const untrusted: ParsedJwks['untrusted'] = [];
  const claimed = new Set<string>();
  for (const entry of list as unknown[]) {
    if (!isPublicJwk(entry) || claimed.has(entry.kid)) continue; // first wins: a duplicate kid cannot replace it
    claimed.add(entry.kid); // a weak key still claims its kid, so a later entry cannot stand in for it
    const reason = entry.kty === 'RSA' ? weakRsaKeyReason(entry) : undefined;
    if (reason) untrusted.push({ kid: entry.kid, reason });
    else keys.set(entry.kid, entry);
  }
  return { keys, untrusted };
}

function isPublicJwk(entry: unknown): entry is JWK & { kid: string } {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return false;
  const { kid, kty } = entry as JWK;
  return typeof kid === 'string' && typeof kty === 'string' && ASYMMETRIC_KEY_TYPES.has(kty) && !('d' in entry);
}
