import { describe, expect, it } from 'vitest';
import { NotFoundError, type PaymentLinkInactiveError } from '../../../lib/core/errors.js';
import { openPaymentLink } from '../../../lib/core/links/open-payment-link.js';
import { cancelLink, linkDeps, newLink, openLink } from '../support/links.js';
import { BASE_URL, coreWorld, enable, payDirect } from '../support/world.js';

/** GET /pay/{linkRef} (SPEC 4.14, lib/core/links/open-payment-link.ts): the link's one order and a fresh session. */
describe('opening a payment link', () => {
  it('the first open creates the link’s order (its amount and action) and a session for it; a reopen reuses the order with a fresh session', async () => {
    const world = await coreWorld();
    const link = await newLink(world, { action: 'PURCHASE', merchantOrderReference: 'INV-7' });
    const first = await openLink(world, link.linkRef);
    expect(first.order).toMatchObject({
      action: 'PURCHASE',
      amount: { currencyCode: 'AED', value: 5_000 },
      merchantOrderReference: 'INV-7',
      linkRef: link.linkRef,
    });
    expect(first.payment.state).toBe('STARTED');
    const again = await openLink(world, link.linkRef);
    expect(again.order.orderRef).toBe(first.order.orderRef);
    expect(again.session.tokenHash).not.toBe(first.session.tokenHash);
    expect((await world.stores.links.get(link.linkRef))?.orderRef).toBe(first.order.orderRef);
  });

  it('two shoppers opening it at once get one order between them: the loser uses the winner’s, its own is never handed out', async () => {
    const world = await coreWorld();
    const link = await newLink(world);
    const [a, b] = await Promise.all([openLink(world, link.linkRef), openLink(world, link.linkRef)]);
    expect(a.order.orderRef).toBe(b.order.orderRef);
    expect((await world.stores.links.get(link.linkRef))?.orderRef).toBe(a.order.orderRef);
    expect(world.stores.tables.orders.size).toBe(2); // both raced to create one: the loser's stays unreachable
    const sessions = [...world.stores.tables.sessions.values()];
    expect(new Set(sessions.map((session) => session.orderRef))).toEqual(new Set([a.order.orderRef]));
  });

  it('the session carries the link’s return URL to the page', async () => {
    const world = await coreWorld();
    const link = await newLink(world, { returnUrl: 'https://shop.example/thanks' });
    expect((await openLink(world, link.linkRef)).session).toMatchObject({ returnUrl: 'https://shop.example/thanks', shopName: 'Core Shop' });
  });

  it('the link’s description goes with its order into every session the page bootstraps from; an order without a link has none', async () => {
    const world = await coreWorld();
    const description = 'Invoice 7 <b>two</b> & "three" — 3 × coffee';
    const link = await newLink(world, { description });
    const first = await openLink(world, link.linkRef);
    expect(first.order.description).toBe(description);
    expect(first.session.description).toBe(description);
    expect((await openLink(world, link.linkRef)).session.description).toBe(description); // a reopen mints through 4.9
    const plain = await openLink(world, (await newLink(world)).linkRef);
    expect(plain.session).not.toHaveProperty('description');
    expect(plain.order).not.toHaveProperty('description');
  });

  it('an unknown link is not found; an expired, cancelled or paid one does not open, and says why', async () => {
    const world = await coreWorld();
    await expect(openPaymentLink(linkDeps(world), 'pl_AAAAAAAAAAAAAAAAAAAAAA', BASE_URL)).rejects.toBeInstanceOf(NotFoundError);
    const reason = (linkRef: string) =>
      openPaymentLink(linkDeps(world), linkRef, BASE_URL).catch((error: unknown) => (error as PaymentLinkInactiveError).reason);

    const cancelled = await newLink(world);
    await cancelLink(world, cancelled.linkRef);
    expect(await reason(cancelled.linkRef)).toBe('CANCELLED');

    const paid = await newLink(world);
    await payDirect(world, (await openLink(world, paid.linkRef)).ids);
    expect(await reason(paid.linkRef)).toBe('PAID');

    const expiring = await newLink(world, { expiresAt: new Date(world.clock.now() + 60_000).toISOString() });
    world.clock.advance(60_000);
    expect(await reason(expiring.linkRef)).toBe('EXPIRED');
  });

  it('with Click to Pay now off for its merchant, an active link does not open (DISABLED)', async () => {
    const world = await coreWorld();
    const link = await newLink(world);
    await enable(world.stores, { clickToPay: false, directWallet: false });
    await expect(openPaymentLink(linkDeps(world), link.linkRef, BASE_URL)).rejects.toMatchObject({ reason: 'DISABLED' });
  });

  it('an order whose payment failed for good no longer opens (UNAVAILABLE); one declined with a retryable code still does', async () => {
    const world = await coreWorld();
    const final = await newLink(world);
    world.acquirer.declineCode = 'LOST_OR_STOLEN';
    world.acquirer.next('decline');
    await payDirect(world, (await openLink(world, final.linkRef)).ids);
    await expect(openPaymentLink(linkDeps(world), final.linkRef, BASE_URL)).rejects.toMatchObject({ reason: 'UNAVAILABLE' });

    const retryable = await newLink(world);
    world.acquirer.declineCode = 'INSUFFICIENT_FUNDS';
    world.acquirer.next('decline');
    await payDirect(world, (await openLink(world, retryable.linkRef)).ids);
    expect((await openPaymentLink(linkDeps(world), retryable.linkRef, BASE_URL)).checkoutUrl).toMatch(/\/checkout\?session=hs_/);
  });
});
