import { join } from 'node:path';
import { SignJWT, generateKeyPair } from 'jose';
import { PERMISSIONS } from '../../lib/core/auth/principal.js';
import { signDevToken, type DevIdentity, type DevTokenClaims } from '../../infra/local/dev-identity.js';

export const identity: DevIdentity = {
  issuer: process.env.AUTH_ISSUER!,
  audience: process.env.AUTH_AUDIENCE!,
  jwksUrl: process.env.AUTH_JWKS_URL!,
  privatePath: join(process.env.TEST_DATA_DIR!, 'auth', 'private-jwks.json'),
};

export const ALL_PERMISSIONS = [...PERMISSIONS];

export function platformToken(permissions: string[] = ALL_PERMISSIONS): Promise<string> {
  return signDevToken(identity, { realm: 'platform', permissions });
}

export function tenantToken(claims: Omit<DevTokenClaims, 'realm' | 'permissions'> & { permissions?: string[] }): Promise<string> {
  return signDevToken(identity, { realm: 'tenant', permissions: ALL_PERMISSIONS, ...claims });
}

/** Tokens that must all be rejected with 401, each for a different reason. */
export async function badTokens(): Promise<Record<string, string>> {
  const valid = await platformToken();
  const [h, p, s] = valid.split('.') as [string, string, string];
  const claims = { realm: 'platform', permissions: ALL_PERMISSIONS };
  const now = Math.floor(Date.now() / 1000);
  const { privateKey: strangerKey } = await generateKeyPair('ES256');
  const sign = (key: CryptoKey, header: Record<string, unknown>, overrides: Record<string, unknown> = {}) =>
    new SignJWT({ ...claims, ...overrides })
      .setProtectedHeader({ alg: 'ES256', kid: 'local-dev-idp-1', ...header } as { alg: string })
      .setIssuer(identity.issuer)
      .setAudience(identity.audience)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(key);
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const payload = { ...claims, iss: identity.issuer, aud: identity.audience, iat: now, exp: now + 600 };
  return {
    malformed: 'not-a-jwt',
    wrongSignature: `${h}.${p}.${s.slice(0, -6)}AAAAAA`,
    signedByStranger: await sign(strangerKey, {}),
    expired: await signDevToken(identity, { realm: 'platform', permissions: ALL_PERMISSIONS }, -120),
    wrongIssuer: await reissue({ iss: 'https://evil.example/' }),
    wrongAudience: await reissue({ aud: 'someone-else' }),
    algNone: `${b64({ alg: 'none', kid: 'local-dev-idp-1' })}.${b64(payload)}.`,
    hmacWithPublicKey: await hmacSignedWithPublicJwks(payload),
    noExp: await reissue({ exp: undefined }),
    unknownKid: `${b64({ alg: 'ES256', kid: 'nope' })}.${p}.${s}`,
    badRealm: await reissue({ realm: 'galaxy' }),
    tenantWithoutTenantRef: await reissue({ realm: 'tenant' }),
  };
}

async function reissue(overrides: Record<string, unknown>): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const { importJWK } = await import('jose');
  const { keys } = JSON.parse(await readFile(identity.privatePath, 'utf8'));
  const key = await importJWK(keys[0], 'ES256');
  const now = Math.floor(Date.now() / 1000);
  const base: Record<string, unknown> = {
    realm: 'platform',
    permissions: ALL_PERMISSIONS,
    iss: identity.issuer,
    aud: identity.audience,
    iat: now,
    exp: now + 600,
    ...overrides,
  };
  for (const [k, v] of Object.entries(base)) if (v === undefined) delete base[k];
  return new SignJWT(base).setProtectedHeader({ alg: 'ES256', kid: 'local-dev-idp-1' }).sign(key as CryptoKey);
}

/** The classic confusion attack: HS256 with the verifier's public key bytes as the secret. */
async function hmacSignedWithPublicJwks(payload: Record<string, unknown>): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const secret = new TextEncoder().encode(await readFile(new URL(identity.jwksUrl), 'utf8'));
  return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', kid: 'local-dev-idp-1' }).sign(secret);
}
