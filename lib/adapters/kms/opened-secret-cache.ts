import type { SecretSealer } from './webhook-secret-sealer.js';

/** At most five minutes: a warm Lambda should not hold a secret much longer than it needs. */
export const MAX_OPENED_SECRET_TTL_MS = 5 * 60_000;

export interface OpenedSecretCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

/**
 * Keeps secrets opened by KMS for a few minutes in the warm Lambda, so that a burst of
 * deliveries costs one Decrypt per secret, not one per delivery. Keyed by the sealed value
 * (a new secret is a new key, so rotation needs no invalidation) together with the merchant,
 * so the cache never skips the merchant binding the encryption context gives. Failures are
 * not cached; entries are never logged.
 */
export class CachingSecretSealer implements SecretSealer {
  private readonly entries = new Map<string, { secret: string; expiresAt: number }>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly inner: SecretSealer,
    options: OpenedSecretCacheOptions = {},
  ) {
    this.ttlMs = Math.min(options.ttlMs ?? MAX_OPENED_SECRET_TTL_MS, MAX_OPENED_SECRET_TTL_MS);
    this.maxEntries = options.maxEntries ?? 1000;
    this.now = options.now ?? Date.now;
  }

  seal(secret: string, merchantRef: string): Promise<string> {
    return this.inner.seal(secret, merchantRef);
  }

  async open(sealed: string, merchantRef: string): Promise<string> {
    const key = `${merchantRef}\n${sealed}`;
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > this.now()) return hit.secret;
    this.entries.delete(key);
    const secret = await this.inner.open(sealed, merchantRef);
    // Oldest first (Map insertion order): drop it when full.
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { secret, expiresAt: this.now() + this.ttlMs });
    return secret;
  }
}
