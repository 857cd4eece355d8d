import { generateKeyPairSync } from 'node:crypto';
import { exportJWK, importJWK, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { AccessTokenVerifier } from '../../../lib/core/auth/access-token.js';
import { Authenticator } from '../../../lib/core/auth/authenticator.js';
import { UnauthenticatedError } from '../../../lib/core/errors.js';
import { mintHostedSession } from '../../../lib/core/orders/hosted-sessions.js';
import { BASE_URL, coreWorld, newOrder, type CoreWorld } from '../support/world.js';

/**
 * SPEC §1's two token kinds (lib/core/auth/authenticator.ts): an identity provider's JWT, or a
 * hosted-session token found by its hash — absent once expired, whether or not storage has
 * removed it yet.
 */
const ISSUER = 'https://idp.example';
const AUDIENCE = 'click-to-pay';

async function authenticatorOf(world: CoreWorld) {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const verifying = await importJWK({ ...(await exportJWK(publicKey)), alg: 'ES256' });
  const verifier = new AccessTokenVerifier(
    { resolve: async (kid) => (kid === 'idp-1' ? verifying : undefined) },
    { issuer: ISSUER, audience: AUDIENCE, now: () => new Date(world.clock.now()) },
  );
  const sign = (claims: Record<string, unknown>, expiresInSeconds = 300) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'idp-1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(Math.floor(world.clock.now() / 1000))
      .setExpirationTime(Math.floor(world.clock.now() / 1000) + expiresInSeconds)
      .sign(privateKey);
  return { authenticator: new Authenticator(verifier, world.stores.sessions, world.clock.now), sign };
}

async function session(world: CoreWorld) {
  const { order, ids } = await newOrder(world);
  const minted = await mintHostedSession({ sessions: world.stores.sessions, ttlSeconds: 900, now: world.clock.now }, order, 'Core Shop', BASE_URL);
  return { token: minted.sessionToken, order, ids };
}

describe('authentication', () => {
  it('a hosted-session token is its order’s principal, with the session’s fixed permissions', async () => {
    const world = await coreWorld();
    const { authenticator } = await authenticatorOf(world);
    const { token, order } = await session(world);
    expect(await authenticator.authenticate(`Bearer ${token}`)).toMatchObject({
      kind: 'session',
      orderRef: order.orderRef,
      outletId: order.outletId,
      merchantRef: order.merchantRef,
    });
  });

  it('an expired session is refused (401) although it is still stored; an unknown one likewise', async () => {
    const world = await coreWorld();
    const { authenticator } = await authenticatorOf(world);
    const { token } = await session(world);
    world.clock.advance(900_000);
    await expect(authenticator.authenticate(`Bearer ${token}`)).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(world.stores.tables.sessions.size).toBe(1);
    await expect(authenticator.authenticate('Bearer hs_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('a session on a payment route reads the order and that payment in the same go, and hands them on', async () => {
    const world = await coreWorld();
    const { authenticator } = await authenticatorOf(world);
    const { token, ids } = await session(world);
    const { principal, readAhead } = await authenticator.authenticateReadingAhead(`Bearer ${token}`, ids);
    expect(principal.kind).toBe('session');
    expect(readAhead?.found?.payments.map((p) => p.paymentRef)).toEqual([ids.paymentRef]);
  });

  it('an identity provider’s token is a platform or tenant principal, narrowed to the outlets it names', async () => {
    const world = await coreWorld();
    const { authenticator, sign } = await authenticatorOf(world);
    expect(await authenticator.authenticate(`Bearer ${await sign({ realm: 'platform', permissions: ['CREATE_ORDER'] })}`)).toMatchObject({ kind: 'platform' });
    const tenant = await authenticator.authenticate(`Bearer ${await sign({ realm: 'tenant', tenantRef: 't-1', outletIds: ['o-1'] })}`);
    expect(tenant).toMatchObject({ kind: 'tenant', tenantRef: 't-1', outletIds: new Set(['o-1']) });
  });

  it('an expired token (by the injected clock), a malformed header or no header at all is 401', async () => {
    const world = await coreWorld();
    const { authenticator, sign } = await authenticatorOf(world);
    const token = await sign({ realm: 'platform' }, 60);
    world.clock.advance(91_000); // past exp and the 30 s tolerance
    await expect(authenticator.authenticate(`Bearer ${token}`)).rejects.toMatchObject({ code: 'UNAUTHENTICATED', message: 'The access token has expired.' });
    await expect(authenticator.authenticate(`Basic ${token}`)).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(authenticator.authenticate(undefined)).rejects.toBeInstanceOf(UnauthenticatedError);
  });
});
