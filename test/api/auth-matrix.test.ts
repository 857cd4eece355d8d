import { beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, type World } from '../support/endpoints.js';
import { invoke } from '../support/invoke.js';
import { seedMerchant, seedWorld, uniqueRef } from '../support/seed.js';
import { sessionTokenFor } from '../support/sessions.js';
import { ALL_PERMISSIONS, badTokens, platformToken, tenantToken } from '../support/tokens.js';
import { sessionRepository } from '../../lib/composition/core.js';
import { hashSessionToken, newSessionToken } from '../../lib/core/auth/session-token.js';

/**
 * SPEC §1 over every endpoint: each bad token is a 401 with WWW-Authenticate; permissions,
 * realm and scope are enforced; out-of-scope is indistinguishable from absent (404).
 */
let world: World;
let bad: Record<string, string>;
let expiredSession: string;

beforeAll(async () => {
  world = await seedWorld();
  bad = await badTokens();
  expiredSession = newSessionToken();
  await sessionRepository.create({
    tokenHash: hashSessionToken(expiredSession),
    orderRef: world.orderRef,
    outletId: world.outletId,
    merchantRef: world.merchantRef,
    tenantRef: world.tenantRef,
    expiresAt: Math.floor(Date.now() / 1000) - 5, // expired, but TTL has not deleted it yet
    createdAt: new Date().toISOString(),
  });
});

describe.each(ENDPOINTS)('$name', (endpoint) => {
  const call = async (token: string | undefined, w: World = world) => {
    const { handler } = await endpoint.load();
    return invoke(handler, { ...endpoint.request(w), ...(token === undefined ? {} : { token }) });
  };

  it('succeeds with a platform token holding every permission', async () => {
    const response = await call(await platformToken());
    expect(response.status, JSON.stringify(response.body)).toBe(endpoint.successStatus);
  });

  it('answers 401 without a token, with WWW-Authenticate', async () => {
    const response = await call(undefined);
    expect(response.status).toBe(401);
    expect(response.headers['WWW-Authenticate']).toBe('Bearer');
    expect(response.headers['Content-Type']).toBe('application/problem+json');
    expect(response.body.code).toBe('UNAUTHENTICATED');
  });

  it.each([
    'malformed', 'wrongSignature', 'signedByStranger', 'expired', 'wrongIssuer', 'wrongAudience',
    'algNone', 'hmacWithPublicKey', 'noExp', 'unknownKid', 'badRealm', 'tenantWithoutTenantRef',
  ])('answers 401 for a %s token', async (kind) => {
    const response = await call(bad[kind]);
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('UNAUTHENTICATED');
    expect(response.raw).not.toContain(bad[kind]!.slice(0, 20));
  });

  it('answers 401 for an expired hosted session', async () => {
    const response = await call(expiredSession);
    expect(response.status).toBe(401);
    expect(response.body.detail).toMatch(/expired/);
  });

  it('answers 401 for an unknown hosted session', async () => {
    const response = await call(newSessionToken());
    expect(response.status).toBe(401);
  });

  if (endpoint.sessionTokens === 'allowed') {
    it("lets a hosted-session token of its own order through; another order's resources are 404", async () => {
      const response = await call(await sessionTokenFor(world));
      expect(response.status, JSON.stringify(response.body)).toBe(endpoint.successStatus);
      if (endpoint.scope !== 'none') {
        const other = await seedWorld();
        const foreign = await call(await sessionTokenFor(world), other);
        expect(foreign.status).toBe(404);
        expect(foreign.body.code).toBe('NOT_FOUND');
      }
    });
  } else {
    it('answers 403 PERMISSION_DENIED to a hosted-session token, even of its own order, before the use case', async () => {
      for (const token of [await sessionTokenFor(world), await sessionTokenFor(await seedWorld())]) {
        const response = await call(token);
        expect(response.status, JSON.stringify(response.body)).toBe(403);
        expect(response.body.code).toBe('PERMISSION_DENIED');
        expect(response.body.detail).toMatch(/hosted-session token/);
        expect(response.raw).not.toContain(token);
      }
    });
  }

  if (endpoint.access.kind === 'permission') {
    const permission = endpoint.access.permission;
    it(`answers 403 PERMISSION_DENIED without ${permission}`, async () => {
      const response = await call(await platformToken(ALL_PERMISSIONS.filter((p) => p !== permission)));
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('PERMISSION_DENIED');
      expect(response.body.detail).toContain(permission);
    });
  }

  if (endpoint.access.kind === 'platform') {
    it('answers 403 PLATFORM_TOKEN_REQUIRED for a tenant token', async () => {
      const response = await call(await tenantToken({ tenantRef: world.tenantRef }));
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('PLATFORM_TOKEN_REQUIRED');
    });
  } else {
    it('succeeds for a tenant token of the owning tenant', async () => {
      const response = await call(await tenantToken({ tenantRef: world.tenantRef }));
      expect(response.status).toBe(endpoint.successStatus);
    });
  }

  if (endpoint.scope !== 'none') {
    it("answers 404 for another tenant's token, exactly like a missing resource", async () => {
      const response = await call(await tenantToken({ tenantRef: uniqueRef('other-tenant') }));
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('NOT_FOUND');
      const missing = await call(await platformToken(), {
        ...world,
        merchantRef: uniqueRef('m'),
        outletId: uniqueRef('o'),
        orderRef: uniqueRef('r'),
      });
      expect(missing.status).toBe(404);
      expect(Object.keys(response.body).sort()).toEqual(Object.keys(missing.body).sort());
      expect(response.body.detail).toBe(missing.body.detail);
    });

    it('answers 404 for a token narrowed to another merchant, and succeeds narrowed to this one', async () => {
      const other = await call(await tenantToken({ tenantRef: world.tenantRef, merchantRef: uniqueRef('m') }));
      expect(other.status).toBe(404);
      const same = await call(await tenantToken({ tenantRef: world.tenantRef, merchantRef: world.merchantRef }));
      expect(same.status).toBe(endpoint.successStatus);
    });
  }

  if (endpoint.scope === 'merchant') {
    // SPEC §1, 4.1: an outlet-narrowed token covers only merchants owning one of its outlets.
    it('answers 404 for a token narrowed to outlets of another merchant or unknown outlets, and succeeds when one outlet is this merchant\'s', async () => {
      const sibling = await seedMerchant({ tenantRef: world.tenantRef });
      for (const outletIds of [[sibling.outletId], [sibling.outletId, sibling.otherOutletId], [uniqueRef('o')], []]) {
        const response = await call(await tenantToken({ tenantRef: world.tenantRef, outletIds }));
        expect(response.status, outletIds.join(',')).toBe(404);
        expect(response.body.code).toBe('NOT_FOUND');
      }
      for (const outletIds of [[world.outletId], [world.otherOutletId], [sibling.outletId, world.otherOutletId]]) {
        const response = await call(await tenantToken({ tenantRef: world.tenantRef, outletIds }));
        expect(response.status, outletIds.join(',')).toBe(endpoint.successStatus);
      }
      const narrowedBoth = await call(await tenantToken({ tenantRef: world.tenantRef, merchantRef: world.merchantRef, outletIds: [sibling.outletId] }));
      expect(narrowedBoth.status).toBe(404);
    });
  }

  if (endpoint.scope === 'outlet' || endpoint.scope === 'order') {
    it('answers 404 for a token narrowed to other outlets, and succeeds narrowed to this one', async () => {
      const other = await call(await tenantToken({ tenantRef: world.tenantRef, outletIds: [world.otherOutletId] }));
      expect(other.status).toBe(404);
      const same = await call(await tenantToken({ tenantRef: world.tenantRef, outletIds: [world.outletId] }));
      expect(same.status).toBe(endpoint.successStatus);
    });
  }
});
