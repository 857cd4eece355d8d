import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { exportJWK, importJWK, type JWK } from 'jose';
import { CheckoutSignatureInvalidError, DependencyUnavailableError } from '../../../lib/core/errors.js';
import type { KeyVault, PayloadPublicKey } from '../../../lib/core/ports/key-vault.js';
import type { NetworkKeys, ResolvedNetworkKey, VerificationKey } from '../../../lib/core/ports/network-keys.js';
import { localUnwrapper } from '../../support/local-unwrapper.js';

/**
 * The service's payload key in memory: an RSA key pair made once per test file (the KMS vault
 * keeps the private half in KMS; here it is a local key, unwrapping exactly as KMS Decrypt would).
 * `outage` makes the next unwraps fail as a throttled KMS does (503).
 */
export class MemoryKeyVault implements KeyVault {
  outage = false;
  unwraps = 0;
  private readonly unwrapper;

  constructor(
    private readonly publicKey: PayloadPublicKey,
    privateKey: KeyObject,
  ) {
    this.unwrapper = localUnwrapper(new Map([[publicKey.kid, privateKey]]));
  }

  async publicKeys(): Promise<PayloadPublicKey[]> {
    return [this.publicKey];
  }

  async currentKid(): Promise<string> {
    return this.publicKey.kid;
  }

  async unwrap(...args: Parameters<KeyVault['unwrap']>): Promise<Uint8Array> {
    this.unwraps++;
    if (this.outage) throw new DependencyUnavailableError(undefined, { cause: new Error('KMS throttled (fake)') });
    return this.unwrapper.unwrap(...args);
  }
}

let payloadKeys: Promise<{ publicJwk: PayloadPublicKey['jwk']; privateKey: KeyObject }> | undefined;

export async function memoryKeyVault(): Promise<MemoryKeyVault> {
  payloadKeys ??= (async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = await exportJWK(publicKey);
    const kid = `memory-${randomUUID()}`;
    return { publicJwk: { kty: 'RSA', kid, use: 'enc', alg: 'RSA-OAEP-256', n: jwk.n!, e: jwk.e! } as const, privateKey };
  })();
  const { publicJwk, privateKey } = await payloadKeys;
  return new MemoryKeyVault(
    { kid: publicJwk.kid, kmsKeyArn: 'memory', configuredId: 'memory', status: 'current', networkKids: [], jwk: publicJwk },
    privateKey,
  );
}

/** A card network's signing key pair: the private JWK signs checkout responses, the public one verifies them. */
export interface NetworkSigningKey {
  network: string;
  kid: string;
  privateJwk: JWK;
  publicKey: VerificationKey;
}

export async function networkSigningKey(network: string): Promise<NetworkSigningKey> {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const kid = `${network}-${randomUUID()}`;
  return {
    network,
    kid,
    publicKey: await importJWK({ ...(await exportJWK(publicKey)), alg: 'ES256' }),
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'ES256' },
  };
}

/** The trusted networks' keys by kid (unknown kid → 422, as the JWKS key ring answers). */
export function memoryNetworkKeys(keys: readonly NetworkSigningKey[]): NetworkKeys {
  return {
    async resolve(kid: string, alg: string): Promise<ResolvedNetworkKey> {
      const found = keys.find((key) => key.kid === kid);
      if (!found || alg !== 'ES256') throw new CheckoutSignatureInvalidError(undefined, { cause: new Error('unknown kid (fake)') });
      return { network: found.network, key: found.publicKey };
    },
  };
}
