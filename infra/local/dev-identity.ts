import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SignJWT, importJWK, type JWK } from 'jose';
import { ensureKeyFiles, readJson } from './jwk-files.js';

/**
 * The local stand-in for the identity provider: an ES256 key under <dataDir>/auth whose
 * JWKS the local API trusts through AUTH_JWKS_URL. Same verification path as production.
 */
export const DEV_ISSUER = 'https://idp.local.click-to-pay.test/';
export const DEV_AUDIENCE = 'click-to-pay-api';
const KID = 'local-dev-idp-1';

export interface DevIdentity {
  issuer: string;
  audience: string;
  jwksUrl: string;
  privatePath: string;
}

export async function ensureDevIdentity(dataDir: string): Promise<DevIdentity> {
  const privatePath = join(dataDir, 'auth', 'private-jwks.json');
  const publicPath = join(dataDir, 'auth', 'jwks.json');
  await ensureKeyFiles(privatePath, publicPath, [{ kid: KID, alg: 'ES256' }]);
  return { issuer: DEV_ISSUER, audience: DEV_AUDIENCE, jwksUrl: pathToFileURL(publicPath).href, privatePath };
}

export interface DevTokenClaims {
  realm: 'platform' | 'tenant';
  tenantRef?: string;
  merchantRef?: string;
  outletIds?: string[];
  permissions: string[];
  sub?: string;
}

export async function signDevToken(identity: DevIdentity, claims: DevTokenClaims, ttlSeconds = 3600): Promise<string> {
  const stored = await readJson<{ keys: JWK[] }>(identity.privatePath);
  const jwk = stored?.keys.find((key) => key.kid === KID);
  if (!jwk) throw new Error(`No dev identity key in ${identity.privatePath}: run npm start once first.`);
  const key = await importJWK(jwk, 'ES256');
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: KID, typ: 'JWT' })
    .setIssuer(identity.issuer)
    .setAudience(identity.audience)
    .setSubject(claims.sub ?? `local-${claims.realm}`)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(key);
}
