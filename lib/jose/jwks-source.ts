import { readFile } from 'node:fs/promises';
import { importJWK, type JWK } from 'jose';
import { DependencyUnavailableError } from '../errors.js';

export type VerificationKey = Awaited<ReturnType<typeof importJWK>>;

export interface JwksSourceOptions {
  /** Minimum time between two fetches: an unknown `kid` cannot make us hammer the issuer. */
  minRefreshIntervalMs?: number;
  /** Keys are trusted this long before a scheduled refresh. */
  maxAgeMs?: number;
  timeoutMs?: number;
  now?: () => number;
}

/**
 * A JSON Web Key Set loaded from an https:, http: or file: URL and cached across warm
 * invocations. Keys are chosen by `kid` only; nothing in a token header (`jku`, `x5u`,
 * `jwk`, `x5c`) can add a key. An unknown `kid` triggers at most one refresh per interval.
 */
export class JwksSource {
  private keys = new Map<string, JWK>();
  private imported = new Map<string, Promise<VerificationKey>>();
  private loadedAt = -Infinity;
  private inflight: Promise<void> | undefined;
  private readonly minRefreshIntervalMs: number;
  private readonly maxAgeMs: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(readonly url: string, options: JwksSourceOptions = {}) {
    if (!/^(https?|file):/.test(url)) throw new Error('JWKS URL must be https:, http: or file:');
    this.minRefreshIntervalMs = options.minRefreshIntervalMs ?? 60_000;
    this.maxAgeMs = options.maxAgeMs ?? 10 * 60_000;
    this.timeoutMs = options.timeoutMs ?? 3_000;
    this.now = options.now ?? Date.now;
  }

  /** The key for `kid` usable with `alg`, or undefined when the set does not have one. */
  async resolve(kid: string, alg: string): Promise<VerificationKey | undefined> {
    const age = this.now() - this.loadedAt;
    const stale = age > this.maxAgeMs;
    const unknownAndRefreshable = !this.keys.has(kid) && age >= this.minRefreshIntervalMs;
    if (stale || unknownAndRefreshable) await this.refresh();
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

  private async load(): Promise<void> {
    let document: unknown;
    try {
      document = JSON.parse(await this.fetchText());
    } catch (cause) {
      // Keep serving the last good set if we had one; fail only when there is none.
      if (this.keys.size > 0) {
        this.loadedAt = this.now();
        return;
      }
      throw new DependencyUnavailableError(undefined, { cause: new Error(`JWKS unavailable: ${this.url}`, { cause }) });
    }
    const list = (document as { keys?: unknown }).keys;
    if (!Array.isArray(list)) throw new DependencyUnavailableError(undefined, { cause: new Error(`JWKS malformed: ${this.url}`) });
    const next = new Map<string, JWK>();
    for (const entry of list) {
      if (entry && typeof entry === 'object' && typeof (entry as JWK).kid === 'string' && !('d' in entry)) {
        next.set((entry as JWK).kid as string, entry as JWK);
      }
    }
    this.keys = next;
    this.imported.clear();
    this.loadedAt = this.now();
  }

  private async fetchText(): Promise<string> {
    if (this.url.startsWith('file:')) return readFile(new URL(this.url), 'utf8');
    const response = await fetch(this.url, { signal: AbortSignal.timeout(this.timeoutMs), redirect: 'error' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return response.text();
  }
}
