import type { Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, MERCHANT_WIDE_ENDPOINTS, type WebhookWorld, type World } from '../support/endpoints.js';
import { invoke } from '../support/invoke.js';
import { authorizedWorld } from '../support/lifecycle.js';
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
    'malformed',
    'wrongSignature',
    'signedByStranger',
    'expired',
    'wrongIssuer',
    'wrongAudience',
    'algNone',
    'hmacWithPublicKey',
    'noExp',
    'unknownKid',
    'badRealm',
    'tenantWithoutTenantRef',
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
    it("answers 404 for a token narrowed to outlets of another merchant or unknown outlets, and succeeds when one outlet is this merchant's", async () => {
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

/**
 * SPEC §1, 4.15: webhook configuration, secret rotation, events and redelivery are merchant-wide
 * (the events carry every outlet's payments, the webhook receives them). A token reaches them
 * only when it covers the whole merchant: not narrowed to outlets, or narrowed to every outlet the
 * merchant has. Anything narrower is a 404 indistinguishable from a merchant that does not exist,
 * and changes nothing.
 */
describe.each(MERCHANT_WIDE_ENDPOINTS)('$name (merchant-wide)', (endpoint) => {
  let w: WebhookWorld;
  let sibling: Awaited<ReturnType<typeof seedMerchant>>;
  let platform: string;
  const webhooks = ['MANAGE_WEBHOOKS'];
  const call = async (token: string, world: WebhookWorld = w) => {
    const { handler } = await endpoint.load();
    return invoke(handler, { ...endpoint.request(world), token });
  };
  const narrowedTo = (outletIds: string[], extra: { merchantRef?: string } = {}) =>
    tenantToken({ tenantRef: w.tenantRef, outletIds, permissions: webhooks, ...extra });
  /** What any of the four could change: the configuration (URL, secrets, timestamps) and the events' delivery schedule. */
  const snapshot = async () => {
    const { handler: getConfig } = await import('../../functions/get-webhook-config/handler.js');
    const { handler: listEvents } = await import('../../functions/list-events/handler.js');
    const params = { pathParameters: { merchantRef: w.merchantRef }, token: platform };
    const [config, events] = await Promise.all([
      invoke(getConfig, { method: 'GET', path: `/config/merchants/${w.merchantRef}/configs/webhooks`, ...params }),
      invoke(listEvents, { method: 'GET', path: `/config/merchants/${w.merchantRef}/events`, ...params }),
    ]);
    return { config: config.body, events: events.body };
  };

  beforeAll(async () => {
    platform = await platformToken();
    const paid = await authorizedWorld(); // payment.authorised: an event to list and redeliver
    const { handler: putConfig } = await import('../../functions/put-webhook-config/handler.js');
    const put = await invoke(putConfig, {
      method: 'PUT',
      path: `/config/merchants/${paid.merchantRef}/configs/webhooks`,
      pathParameters: { merchantRef: paid.merchantRef },
      token: platform,
      body: { url: 'http://127.0.0.1:9/original' },
    });
    expect(put.status, put.raw).toBe(200);
    // The delivery worker turns the payment's outbox into the merchant's events (one failed attempt: port 9).
    const { handler: deliver } = await import('../../functions/webhook-delivery/handler.js');
    const end = Date.now() + 60_000;
    await deliver({ source: 'aws.events', 'detail-type': 'Scheduled Event' }, {
      awsRequestId: 'matrix',
      functionName: 'webhookDelivery',
      getRemainingTimeInMillis: () => end - Date.now(),
    } as unknown as Context);
    const { handler: listEvents } = await import('../../functions/list-events/handler.js');
    const listed = await invoke(listEvents, {
      method: 'GET',
      path: `/config/merchants/${paid.merchantRef}/events`,
      pathParameters: { merchantRef: paid.merchantRef },
      token: platform,
    });
    w = { ...paid, eventId: listed.body.events[0].id };
    sibling = await seedMerchant({ tenantRef: w.tenantRef });
  });

  it('answers 404 to a token narrowed to some of the merchant’s outlets (or none of them), exactly like a missing merchant, and changes nothing', async () => {
    const before = await snapshot();
    const missing = await call(platform, { ...w, merchantRef: uniqueRef('m') });
    expect(missing.status).toBe(404);
    for (const token of [
      await narrowedTo([w.outletId]),
      await narrowedTo([w.otherOutletId]),
      await narrowedTo([w.outletId, sibling.outletId, sibling.otherOutletId]),
      await narrowedTo([w.otherOutletId, uniqueRef('o')]),
      await narrowedTo([w.outletId], { merchantRef: w.merchantRef }),
      await narrowedTo([sibling.outletId, sibling.otherOutletId]),
      await narrowedTo([]),
    ]) {
      const response = await call(token);
      expect(response.status, response.raw).toBe(404);
      expect(response.body.code).toBe('NOT_FOUND');
      expect(response.body.detail).toBe(missing.body.detail);
      expect(Object.keys(response.body).sort()).toEqual(Object.keys(missing.body).sort());
    }
    expect(await snapshot()).toEqual(before);
  });

  it('answers 403 PERMISSION_DENIED to a whole-merchant tenant token without MANAGE_WEBHOOKS', async () => {
    const response = await call(await tenantToken({ tenantRef: w.tenantRef, permissions: ALL_PERMISSIONS.filter((p) => p !== 'MANAGE_WEBHOOKS') }));
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('PERMISSION_DENIED');
  });

  it('succeeds for a platform token, a tenant token, one narrowed to the merchant, and one narrowed to every outlet it has', async () => {
    for (const token of [
      platform,
      await tenantToken({ tenantRef: w.tenantRef, permissions: webhooks }),
      await tenantToken({ tenantRef: w.tenantRef, merchantRef: w.merchantRef, permissions: webhooks }),
      await narrowedTo([w.outletId, w.otherOutletId]),
      await narrowedTo([w.otherOutletId, w.outletId, sibling.outletId], { merchantRef: w.merchantRef }),
    ]) {
      const response = await call(token);
      expect(response.status, response.raw).toBe(endpoint.successStatus);
    }
  });
});
