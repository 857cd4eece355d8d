import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

export type FakeNetworkName = 'visa' | 'mastercard';

/** Throw-away keys of one fake "production" network, made fresh for each browser-suite run. */
export interface FakeNetworkKeys {
  /** Private signing JWK (kid, alg): signs the checkout responses. */
  signing: JWK;
  /** file: URL of the public signing JWKS, for NETWORK_JWKS_URLS (the service trusts it by this name). */
  signingJwksUrl: string;
  /** The card-encryption key pair the network publishes for new cards (private half stays here). */
  cardEncryption: { privateKey: JWK; publicKey: JWK };
}

/**
 * Key ids follow the forms the references show: Mastercard's payload-verification kid is a
 * dated name ("20230207164613-sandbox-payload-verification-src-mastercard-int", quoted in
 * docs.bepaid.by/ru/dev_tools/tokenization/scof/); Visa's card-encryption kid is an opaque id
 * Visa assigns (juspay/hyperswitch-web src/Utilities/ClickToPayCardEncryptionHelpers.js).
 * The Visa signing kid and both other ids are not shown in any public example: made up here.
 */
const KIDS: Record<FakeNetworkName, { signing: string; card: string }> = {
  visa: { signing: 'fake-visa-payload-signing-1', card: 'FAKEVISAENC0001KEYID' },
  mastercard: { signing: '20261123000000-fake-payload-verification-src-mastercard', card: '20261123000000-fake-fpan-encryption-src-mastercard' },
};

export async function createFakeNetworkKeys(name: FakeNetworkName, dir: string): Promise<FakeNetworkKeys> {
  // RS256: the algorithm of the Mastercard JWS header quoted above; Visa's is not quoted publicly.
  const signingPair = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  const signing: JWK = { ...(await exportJWK(signingPair.privateKey)), kid: KIDS[name].signing, alg: 'RS256', use: 'sig' };
  const publicSigning: JWK = { ...(await exportJWK(signingPair.publicKey)), kid: KIDS[name].signing, alg: 'RS256', use: 'sig' };
  const jwksPath = join(dir, `${name}-signing-jwks.json`);
  await writeFile(jwksPath, JSON.stringify({ keys: [publicSigning] }, null, 2));

  const cardPair = await generateKeyPair('RSA-OAEP-256', { extractable: true, modulusLength: 2048 });
  const meta = { kid: KIDS[name].card, alg: 'RSA-OAEP-256', use: 'enc' };
  return {
    signing,
    signingJwksUrl: pathToFileURL(jwksPath).href,
    cardEncryption: {
      privateKey: { ...(await exportJWK(cardPair.privateKey)), ...meta },
      publicKey: { ...(await exportJWK(cardPair.publicKey)), ...meta },
    },
  };
}
