import { describe, expect, it } from 'vitest';
import { hashSessionToken } from '../../../lib/core/auth/session-token.js';
import { PaymentStateConflictError } from '../../../lib/core/errors.js';
import { createHostedSession } from '../../../lib/core/orders/hosted-sessions.js';
import { cancelLink, newLink, openLink } from '../support/links.js';
import { BASE_URL, coreWorld, newOrder, OUTLET, payDirect, platform, type CoreWorld } from '../support/world.js';

/** SPEC 4.9 (lib/core/orders/hosted-sessions.ts): a session token for one payable order; only its hash is kept. */
const mint = (world: CoreWorld, orderRef: string) =>
  createHostedSession(
    {
      orders: world.stores.orders,
      config: world.stores.config,
      sessions: world.stores.sessions,
      links: world.stores.links,
      ttlSeconds: 900,
      now: world.clock.now,
    },
    platform,
    OUTLET,
    orderRef,
    BASE_URL,
  );

describe('hosted sessions', () => {
  it('a session is minted for a payable order: the token is answered once, only its SHA-256 is stored, with the order’s scope and expiry', async () => {
    const world = await coreWorld();
    const { order } = await newOrder(world);
    const minted = await mint(world, order.orderRef);
    expect(minted.sessionToken).toMatch(/^hs_/);
    expect(minted.checkoutUrl).toBe(`${BASE_URL}/checkout?session=${encodeURIComponent(minted.sessionToken)}`);
    const stored = [...world.stores.tables.sessions.values()];
    expect(stored).toEqual([
      expect.objectContaining({
        tokenHash: hashSessionToken(minted.sessionToken),
        orderRef: order.orderRef,
        expiresAt: Math.floor(world.clock.now() / 1000) + 900,
        shopName: 'Core Shop',
      }),
    ]);
    expect(JSON.stringify(stored)).not.toContain(minted.sessionToken);
  });

  it('a paid order gets no new session (409), nor one whose last payment failed for good; a retryable decline still does', async () => {
    const world = await coreWorld();
    const paid = await newOrder(world);
    await payDirect(world, paid.ids);
    await expect(mint(world, paid.order.orderRef)).rejects.toBeInstanceOf(PaymentStateConflictError);

    const lost = await newOrder(world);
    world.acquirer.declineCode = 'LOST_OR_STOLEN';
    world.acquirer.next('decline');
    await payDirect(world, lost.ids);
    await expect(mint(world, lost.order.orderRef)).rejects.toBeInstanceOf(PaymentStateConflictError);

    const declined = await newOrder(world);
    world.acquirer.declineCode = 'INSUFFICIENT_FUNDS';
    world.acquirer.next('decline');
    await payDirect(world, declined.ids);
    expect((await mint(world, declined.order.orderRef)).sessionToken).toMatch(/^hs_/);
  });

  it('an order whose payment link was cancelled gets no session, whatever session the shopper still holds', async () => {
    const world = await coreWorld();
    const link = await newLink(world);
    const { order } = await openLink(world, link.linkRef);
    await cancelLink(world, link.linkRef);
    await expect(mint(world, order.orderRef)).rejects.toMatchObject({ message: 'The payment link of this order was cancelled.' });
  });
});
