import { CheckoutSignatureInvalidError } from '../../core/errors.js';
import { JwksSource, type JwksSourceOptions, type VerificationKey } from './jwks-source.js';

export { SANDBOX_NETWORK } from '../../core/domain/networks.js';

export interface TrustedNetwork {
  name: string;
  url: string;
}

export interface ResolvedNetworkKey {
  network: string;
  key: VerificationKey;
}

interface NetworkSource {
  name: string;
  jwks: JwksSource;
}

/**
 * The card networks' signing keys (NETWORK_JWKS_URLS), one cached JWKS per network.
 * An unknown kid refreshes each set at most once a minute (JwksSource), so junk kids
 * cannot turn into a fetch storm.
 */
export class NetworkKeyRing {
  private readonly sources: NetworkSource[];

  constructor(networks: readonly TrustedNetwork[], options: JwksSourceOptions = {}) {
    if (networks.length === 0) throw new Error('at least one trusted network is required');
    this.sources = networks.map(({ name, url }) => ({
      name,
      jwks: new JwksSource(url, { ...options, minRefreshIntervalMs: options.minRefreshIntervalMs ?? 60_000 }),
    }));
  }

  /**
   * In this order: a kid already cached in any network (no fetch, no waiting); then the
   * network the SDK result's shape names (`hint`, e.g. `visa`), refreshed if needed; then
   * every other network at once, the first one that has the kid winning. One network's
   * outage never blocks another's keys: only when no network has the kid and one of them
   * could not be asked is it a 503; otherwise the kid is unknown (422). The hint only
   * orders the search: the network recorded is the one whose key verified.
   */
  async resolve(kid: string, alg: string, hint?: string): Promise<ResolvedNetworkKey> {
    const cached = await firstHit(this.sources.map((source) => lookup(source, () => source.jwks.cached(kid, alg))));
    if (cached.hit) return cached.hit;
    const named = this.sources.filter((source) => source.name === hint);
    const others = this.sources.filter((source) => source.name !== hint);
    const first = await firstHit(named.map((source) => lookup(source, () => source.jwks.resolve(kid, alg))));
    if (first.hit) return first.hit;
    const rest = await firstHit(others.map((source) => lookup(source, () => source.jwks.resolve(kid, alg))));
    if (rest.hit) return rest.hit;
    const outage = first.outage ?? rest.outage;
    if (outage !== undefined) throw outage;
    throw new CheckoutSignatureInvalidError(undefined, { cause: new Error('unknown kid') });
  }
}

const lookup = async (source: NetworkSource, find: () => Promise<VerificationKey | undefined>) => {
  const key = await find();
  return key === undefined ? undefined : { network: source.name, key };
};

interface Search {
  hit?: ResolvedNetworkKey;
  /** The first failure, when some lookup failed and none hit. */
  outage?: unknown;
}

/** Settles with the first lookup that finds the key, without waiting for the slower ones. */
function firstHit(lookups: Promise<ResolvedNetworkKey | undefined>[]): Promise<Search> {
  return new Promise((settle) => {
    let pending = lookups.length;
    let outage: unknown;
    const done = () => {
      pending -= 1;
      if (pending === 0) settle(outage === undefined ? {} : { outage });
    };
    if (pending === 0) settle({});
    for (const lookup of lookups) {
      lookup.then(
        (hit) => (hit ? settle({ hit }) : done()),
        (error: unknown) => {
          outage ??= error;
          done();
        },
      );
    }
  });
}
