import { CheckoutSignatureInvalidError } from '../errors.js';
import { JwksSource, type VerificationKey } from '../jose/jwks-source.js';

/** The network name whose keys are trusted for sandbox merchants only (SPEC §5). */
export const SANDBOX_NETWORK = 'sandbox';

export interface TrustedNetwork {
  name: string;
  url: string;
}

export interface ResolvedNetworkKey {
  network: string;
  key: VerificationKey;
}

/**
 * The card networks' signing keys (NETWORK_JWKS_URLS), one cached JWKS per network.
 * A `kid` is looked up in every network's set; an unknown one refreshes each set at most
 * once a minute (JwksSource), so junk kids cannot turn into a fetch storm.
 */
export class NetworkKeyRing {
  private readonly sources: { name: string; jwks: JwksSource }[];

  constructor(networks: readonly TrustedNetwork[], options: { minRefreshIntervalMs?: number } = {}) {
    if (networks.length === 0) throw new Error('at least one trusted network is required');
    this.sources = networks.map(({ name, url }) => ({
      name,
      jwks: new JwksSource(url, { minRefreshIntervalMs: options.minRefreshIntervalMs ?? 60_000 }),
    }));
  }

  /**
   * One network's JWKS outage must not stop the others' payments: a kid found anywhere wins.
   * Only when no reachable network has it and some network could not be asked is it a 503.
   */
  async resolve(kid: string, alg: string): Promise<ResolvedNetworkKey> {
    const results = await Promise.allSettled(this.sources.map(async ({ name, jwks }) => ({ network: name, key: await jwks.resolve(kid, alg) })));
    for (const result of results) {
      if (result.status === 'fulfilled' && result.value.key !== undefined) return result.value as ResolvedNetworkKey;
    }
    const outage = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (outage) throw outage.reason;
    throw new CheckoutSignatureInvalidError(undefined, { cause: new Error('unknown kid') });
  }
}
