import { loadStanding, type MerchantStanding } from './enablement.js';
import type { ConfigStore } from '../ports/config-store.js';

/** Where the payment functions get a merchant's standing (merchant, platform, tenant, enablement). */
export interface StandingSource {
  load(tenantRef: string, merchantRef: string): Promise<MerchantStanding>;
}

/** Warm functions keep at most this many merchants (oldest entry out first: a bound on memory). */
const MAX_ENTRIES = 2_000;

/**
 * The merchant's standing, cached in the warm payment function for `ttlMs` (CONFIG_CACHE_SECONDS):
 * configuration changes rarely and the payment path reads it on every request (SPEC 4.3 step 7).
 * The bound is the staleness contract: enablement switched off (4.5/4.6) or a merchant
 * re-onboarded (4.7) takes effect in every warm function within `ttlMs`. Concurrent misses
 * share one read; a failed read is not cached. `ttlMs` 0 reads every time.
 */
export class CachedStanding implements StandingSource {
  private readonly entries = new Map<string, { until: number; value: Promise<MerchantStanding> }>();

  constructor(
    private readonly config: ConfigStore,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  load(tenantRef: string, merchantRef: string): Promise<MerchantStanding> {
    if (this.ttlMs <= 0) return loadStanding(this.config, tenantRef, merchantRef);
    const key = `${tenantRef}\u0000${merchantRef}`;
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    const value = loadStanding(this.config, tenantRef, merchantRef);
    this.entries.delete(key);
    this.entries.set(key, { until: now + this.ttlMs, value });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }
}
