import type { importJWK } from 'jose';

/** A public key JOSE verifies with (what jose's `importJWK` gives). */
export type VerificationKey = Awaited<ReturnType<typeof importJWK>>;

export interface ResolvedNetworkKey {
  /** The trusted network whose key set holds it (e.g. `visa`, `mastercard`, `sandbox`). */
  network: string;
  key: VerificationKey;
}

/** The card networks' signing keys (SPEC 4.3 step 2), looked up by `kid` and `alg`. */
export interface NetworkKeys {
  /** `hint`: the network the SDK result's shape names, asked first. Throws the 422 of an unknown or unusable key. */
  resolve(kid: string, alg: string, hint?: string): Promise<ResolvedNetworkKey>;
}

/** A key set (an identity provider's, a network's) that answers a `kid`, or undefined when it has none. */
export interface KeySet {
  resolve(kid: string, alg: string): Promise<VerificationKey | undefined>;
}
