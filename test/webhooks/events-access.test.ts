/**
 * SPEC §1 and §4.15: a merchant's events (list, redeliver) and webhook configuration are another
 * tenant's, another merchant's and a merchant's single outlet's to neither read nor change; such
 * a caller gets 404, as if they did not exist.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as getConfigHandler } from '../../functions/get-webhook-config/handler.js';
import { handler as putConfigHandler } from '../../functions/put-webhook-config/handler.js';
import { eventKey } from '../../lib/adapters/dynamodb/event-repository.js';
import { invoke } from '../support/invoke.js';
import { authorizedWorld } from '../support/lifecycle.js';
import { seedMerchant } from '../support/seed.js';
import { storedItem } from '../support/stored-item.js';
import { platformToken, tenantToken } from '../support/tokens.js';
import { webhookDeliveryHarness } from '../support/webhook-delivery.js';

let token: string;
beforeAll(async () => {
  token = await platformToken();
});
const { table, closers, worker, sweepAll, storedEvents, list, redeliver } = webhookDeliveryHarness(() => token);
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe('a merchant’s events and webhooks are reached only by a token covering the whole merchant', () => {
  it("merchant B's tenant token can neither list nor redeliver merchant A's events, by A's path or its own", async () => {
    const a = await authorizedWorld();
    const b = await authorizedWorld();
    await sweepAll(worker('nobody', 'https://unused.example/')); // NOT_CONFIGURED: stored, never sent
    const [event] = await storedEvents(a.merchantRef);
    const before = await storedItem(eventKey(a.merchantRef, event!.id), table);
    const tenantB = await tenantToken({ tenantRef: b.tenantRef, permissions: ['MANAGE_WEBHOOKS'] });
    const merchantB = await tenantToken({ tenantRef: b.tenantRef, merchantRef: b.merchantRef, permissions: ['MANAGE_WEBHOOKS'] });
    for (const bearer of [tenantB, merchantB]) {
      expect((await list(a.merchantRef, bearer)).status).toBe(404);
      expect((await redeliver(a.merchantRef, event!.id, bearer)).status).toBe(404);
      expect((await redeliver(b.merchantRef, event!.id, bearer)).status).toBe(404); // A's id under B's merchant
      const own = await list(b.merchantRef, bearer);
      expect(own.status).toBe(200);
      expect(own.raw).not.toContain(a.paymentRef);
    }
    // A merchant-narrowed token of A's own tenant, narrowed to another merchant, is a stranger too.
    const sibling = await tenantToken({ tenantRef: a.tenantRef, merchantRef: b.merchantRef, permissions: ['MANAGE_WEBHOOKS'] });
    expect((await list(a.merchantRef, sibling)).status).toBe(404);
    expect(await storedItem(eventKey(a.merchantRef, event!.id), table)).toEqual(before);
  });

  it("a token narrowed to one merchant's outlets neither reads nor redirects a sibling merchant's webhooks and events", async () => {
    const a = await authorizedWorld();
    const sibling = await seedMerchant({ tenantRef: a.tenantRef });
    const hook = (merchantRef: string, bearer: string, body?: unknown) =>
      invoke(body ? putConfigHandler : getConfigHandler, {
        method: body ? 'PUT' : 'GET',
        path: `/config/merchants/${merchantRef}/configs/webhooks`,
        pathParameters: { merchantRef },
        token: bearer,
        ...(body ? { body } : {}),
      });
    expect((await hook(sibling.merchantRef, token, { url: 'http://127.0.0.1:9/merchant-b' })).status).toBe(200);
    const outletOfA = await tenantToken({ tenantRef: a.tenantRef, outletIds: [a.outletId], permissions: ['MANAGE_WEBHOOKS'] });
    // SPEC §1: a merchant's webhooks and events are reached only by a token covering the whole merchant.
    expect((await hook(sibling.merchantRef, outletOfA, { url: 'http://127.0.0.1:9/attacker' })).status).toBe(404);
    expect((await hook(sibling.merchantRef, outletOfA)).status).toBe(404);
    expect((await list(sibling.merchantRef, outletOfA)).status).toBe(404);
    expect((await hook(sibling.merchantRef, token)).body.url).toBe('http://127.0.0.1:9/merchant-b');
    // Nor its own merchant's, through one of its two outlets; narrowed to both, it manages them.
    expect((await list(a.merchantRef, outletOfA)).status).toBe(404);
    expect((await hook(a.merchantRef, outletOfA, { url: 'http://127.0.0.1:9/merchant-a' })).status).toBe(404);
    const allOutletsOfA = await tenantToken({ tenantRef: a.tenantRef, outletIds: [a.outletId, a.otherOutletId], permissions: ['MANAGE_WEBHOOKS'] });
    expect((await list(a.merchantRef, allOutletsOfA)).status).toBe(200);
    expect((await hook(a.merchantRef, allOutletsOfA, { url: 'http://127.0.0.1:9/merchant-a' })).status).toBe(200);
  });
});
