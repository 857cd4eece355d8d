import { createPublicKey } from 'node:crypto';
import { DecryptCommand, GetPublicKeyCommand, type GetPublicKeyCommandOutput, type KMSClient } from '@aws-sdk/client-kms';
import { calculateJwkThumbprint } from 'jose';
import type { ContentKeyUnwrapper, KeyWrapAlgorithm } from '../../core/checkout/jwe.js';
import { CheckoutDecryptionFailedError, InternalError } from '../../core/errors.js';
import { logger as defaultLogger, type Logger } from '../../core/ports/logger.js';
import { BAD_INPUT, isBadCiphertext, mapKmsError, MISCONFIGURED, MISCONFIGURED_LOAD } from './kms-errors.js';

export interface PayloadPublicKey {
  kid: string;
  kmsKeyArn: string;
  /** The entry of PAYLOAD_KEY_IDS this key came from (what an operator registers kids under). */
  configuredId: string;
  status: 'current' | 'previous';
  /** Key ids the card networks assigned to this key (PAYLOAD_KEY_NETWORK_KIDS). */
  networkKids: readonly string[];
  jwk: { kty: 'RSA'; kid: string; use: 'enc'; alg: 'RSA-OAEP-256'; n: string; e: string };
}

export interface PayloadKeyVaultOptions {
  /** `{ <entry of keyIds>: [network-assigned kid, …] }`, validated by keys-config.ts. */
  networkKids?: Readonly<Record<string, readonly string[]>>;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

const KMS_ALGORITHM: Record<KeyWrapAlgorithm, 'RSAES_OAEP_SHA_1' | 'RSAES_OAEP_SHA_256'> = {
  'RSA-OAEP': 'RSAES_OAEP_SHA_1',
  'RSA-OAEP-256': 'RSAES_OAEP_SHA_256',
};
/** A network kid is logged so operators can register it; a longer one is cut (it is not ours). */
const LOGGED_KID_LENGTH = 200;

/**
 * The service's checkout-payload keys. Public halves come from KMS GetPublicKey once per
 * cold start; our `kid` is the RFC 7638 thumbprint. Private halves never leave KMS: `unwrap`
 * sends only the JWE's encrypted CEK to Decrypt.
 *
 * Recipient selection (SPEC §4.3 step 5): the key whose thumbprint, or one of whose
 * registered network kids, is the JWE `kid`; failing both, or when the JWE has no `kid`
 * (RFC 7516 makes it optional), each configured key in turn,
 * current first, at most one Decrypt per key (a wrong RSA-OAEP key fails at KMS with
 * InvalidCiphertextException: "try the next"). Only a JWE inside a JWS a trusted network
 * signed gets here, so only a network can make the service try.
 */
export class PayloadKeyVault implements ContentKeyUnwrapper {
  private keys: Promise<PayloadPublicKey[]> | undefined;
  private readonly logger: Pick<Logger, 'info' | 'warn'>;
  private readonly networkKids: Readonly<Record<string, readonly string[]>>;

  constructor(
    private readonly kms: KMSClient,
    private readonly keyIds: readonly string[],
    options: PayloadKeyVaultOptions = {},
  ) {
    if (keyIds.length === 0) throw new Error('at least one payload key id is required');
    this.networkKids = options.networkKids ?? {};
    this.logger = options.logger ?? defaultLogger;
  }

  publicKeys(): Promise<PayloadPublicKey[]> {
    this.keys ??= this.load().catch((error: unknown) => {
      this.keys = undefined; // do not cache a failure: the next invocation tries again
      throw error;
    });
    return this.keys;
  }

  async currentKid(): Promise<string> {
    return (await this.publicKeys())[0]!.kid;
  }

  /**
   * ContentKeyUnwrapper port of the JWE code. An RSA-OAEP ciphertext is exactly as long as
   * the key's modulus (RFC 8017 §7.1.2), so a key of another length is never asked: that
   * costs no KMS call, and real KMS would answer it with a ValidationException.
   */
  async unwrap(kid: string | undefined, alg: KeyWrapAlgorithm, encryptedKey: Uint8Array): Promise<Uint8Array> {
    const keys = await this.publicKeys();
    const named = kid === undefined ? undefined : keys.find((key) => key.kid === kid || key.networkKids.includes(kid));
    if (named) {
      if (encryptedKey.length !== modulusLength(named)) throw decryptionFailed('encrypted key length is not the modulus length');
      return this.decrypt(named, alg, encryptedKey).catch((error: unknown) => {
        throw mapKmsError(error, BAD_INPUT, MISCONFIGURED);
      });
    }
    return this.trial(keys, kid, alg, encryptedKey);
  }

  /**
   * Unknown or absent kid: each key in order; a KMS fault is never "try the next" (503 stays
   * 503). An unknown kid is logged at warn so that it can be registered; a JWE without a kid
   * has nothing to register, so its match is only info (its failure is still a warn).
   */
  private async trial(keys: PayloadPublicKey[], kid: string | undefined, alg: KeyWrapAlgorithm, encryptedKey: Uint8Array) {
    const networkKid = kid?.slice(0, LOGGED_KID_LENGTH);
    const asked = new Set<string>(); // one KMS key listed twice (alias and ARN, say) is asked once
    for (const key of keys) {
      if (encryptedKey.length !== modulusLength(key) || asked.has(key.kmsKeyArn)) continue;
      asked.add(key.kmsKeyArn);
      let cek: Uint8Array;
      try {
        cek = await this.decrypt(key, alg, encryptedKey);
      } catch (error) {
        if (isBadCiphertext(error)) continue;
        throw mapKmsError(error, new Set(), MISCONFIGURED);
      }
      // Key id and the network's kid only: never key material or the CEK.
      const match = { payloadKeyId: key.configuredId, payloadKid: key.kid, payloadKeyStatus: key.status };
      if (networkKid === undefined) {
        this.logger.info('payload JWE has no kid; a configured key decrypted it by trial', match);
      } else {
        this.logger.warn('payload JWE kid is not registered; a configured key decrypted it by trial', {
          networkKid,
          ...match,
          hint: 'add the kid to PAYLOAD_KEY_NETWORK_KIDS under this payload key id',
        });
      }
      return cek;
    }
    this.logger.warn(
      networkKid === undefined ? 'payload JWE has no kid and no configured key decrypts it' : 'payload JWE kid is unknown and no configured key decrypts it',
      { ...(networkKid === undefined ? {} : { networkKid }), keysTried: keys.length },
    );
    throw decryptionFailed('no configured payload key decrypts the JWE');
  }

  private async decrypt(key: PayloadPublicKey, alg: KeyWrapAlgorithm, encryptedKey: Uint8Array): Promise<Uint8Array> {
    const { Plaintext } = await this.kms.send(
      new DecryptCommand({ KeyId: key.kmsKeyArn, CiphertextBlob: encryptedKey, EncryptionAlgorithm: KMS_ALGORITHM[alg] }),
    );
    if (!Plaintext) throw new Error('KMS returned no plaintext');
    return Plaintext;
  }

  private async load(): Promise<PayloadPublicKey[]> {
    return Promise.all(
      this.keyIds.map(async (keyId, index) => {
        let response: GetPublicKeyCommandOutput;
        try {
          response = await this.kms.send(new GetPublicKeyCommand({ KeyId: keyId }));
        } catch (error) {
          throw mapKmsError(error, new Set(), MISCONFIGURED_LOAD);
        }
        if (!response.PublicKey || !response.KeyId || response.KeyUsage !== 'ENCRYPT_DECRYPT' || !response.KeySpec?.startsWith('RSA_')) {
          throw new InternalError(undefined, { cause: new Error(`payload key ${index} is not an RSA ENCRYPT_DECRYPT key`) });
        }
        const exported = createPublicKey({ key: Buffer.from(response.PublicKey), format: 'der', type: 'spki' }).export({ format: 'jwk' });
        const n = exported.n!;
        const e = exported.e!;
        const kid = await calculateJwkThumbprint({ kty: 'RSA', n, e }, 'sha256');
        return {
          kid,
          kmsKeyArn: response.KeyId,
          configuredId: keyId,
          status: index === 0 ? 'current' : 'previous',
          networkKids: this.networkKids[keyId] ?? [],
          jwk: { kty: 'RSA', kid, use: 'enc', alg: 'RSA-OAEP-256', n, e },
        } satisfies PayloadPublicKey;
      }),
    );
  }
}

/** Bytes of the RSA modulus: the JWK `n` is unsigned big-endian without leading zeros. */
const modulusLength = (key: PayloadPublicKey) => Buffer.from(key.jwk.n, 'base64url').length;

const decryptionFailed = (reason: string) => new CheckoutDecryptionFailedError(undefined, { cause: new Error(reason) });
