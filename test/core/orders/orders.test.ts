import { describe, expect, it } from 'vitest';
import { InvalidRedirectUrlError, NotFoundError } from '../../../lib/core/errors.js';
import { createOrder, readOrder } from '../../../lib/core/orders/orders.js';
import { BASE_URL, coreWorld, enable, newOrder, OUTLET, payDirect, platform, sessionPrincipal, tenantPrincipal } from '../support/world.js';

/** SPEC 4.8 and GET order (lib/core/orders/orders.ts): an order with its first payment; its state follows its payment. */
describe('orders', () => {
  it('an order is created with its first payment STARTED, and reads back with the methods offered right now', async () => {
    const world = await coreWorld({ directWallet: false });
    const created = await createOrder(world.orderDeps, platform, OUTLET, {
      action: 'AUTH',
      amount: { currencyCode: 'AED', value: 1_234 },
      merchantOrderReference: 'R-1',
    });
    expect(created).toMatchObject({ state: 'STARTED', paymentMethods: ['CLICK_TO_PAY'], merchantOrderReference: 'R-1', payments: [{ state: 'STARTED' }] });
    const stored = (await world.stores.orders.get(created.orderRef))!;
    expect(stored.order).toMatchObject({ merchantRef: 'm-core', tenantRef: 't-core', outletId: OUTLET });
    expect(stored.payments).toEqual([expect.objectContaining({ state: 'STARTED', version: 1, amount: { currencyCode: 'AED', value: 1_234 } })]);
    await enable(world.stores, { clickToPay: true, directWallet: true });
    expect((await readOrder(world.orderDeps, platform, OUTLET, created.orderRef)).paymentMethods).toEqual(['CLICK_TO_PAY', 'DIRECT_WALLET']);
  });

  it('an order’s state follows its payment: STARTED while one is being processed, then the payment’s outcome', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world, { action: 'PURCHASE' });
    await payDirect(world, ids);
    expect((await readOrder(world.orderDeps, platform, OUTLET, ids.orderRef)).state).toBe('CAPTURED');
  });

  it('an order is found only in its outlet and the caller’s scope (404 otherwise); a session token covers its own order alone', async () => {
    const world = await coreWorld();
    const { order } = await newOrder(world);
    const other = await newOrder(world);
    const read = (principal: Parameters<typeof readOrder>[1], outletId: string, orderRef: string) => readOrder(world.orderDeps, principal, outletId, orderRef);
    await expect(read(tenantPrincipal({ tenantRef: 'another' }), OUTLET, order.orderRef)).rejects.toBeInstanceOf(NotFoundError);
    await expect(read(tenantPrincipal({ outletIds: ['another-outlet'] }), OUTLET, order.orderRef)).rejects.toBeInstanceOf(NotFoundError);
    await expect(read(platform, 'another-outlet', order.orderRef)).rejects.toBeInstanceOf(NotFoundError);
    expect((await read(sessionPrincipal(order), OUTLET, order.orderRef)).orderRef).toBe(order.orderRef);
    await expect(read(sessionPrincipal(order), OUTLET, other.order.orderRef)).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      createOrder(world.orderDeps, tenantPrincipal({ tenantRef: 'another' }), OUTLET, { action: 'AUTH', amount: { currencyCode: 'AED', value: 1 } }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('with a returnUrl the hosted session is minted in the same call; a return URL outside the merchant’s origins is refused (422) and nothing is stored', async () => {
    const world = await coreWorld();
    const deps = { ...world.orderDeps, checkout: { sessions: world.stores.sessions, ttlSeconds: 900, now: world.clock.now, baseUrl: BASE_URL } };
    const input = { action: 'AUTH' as const, amount: { currencyCode: 'AED', value: 1_000 } };
    const created = await createOrder(deps, platform, OUTLET, { ...input, returnUrl: 'https://shop.example/done', cancelUrl: 'https://shop.example/cart' });
    expect(created).toMatchObject({
      returnUrl: 'https://shop.example/done',
      checkoutUrl: expect.stringMatching(/^https:\/\/pay\.core\.test\/checkout\?session=hs_/),
    });
    expect(created.checkoutExpiresAt).toBe(new Date(world.clock.now() + 900_000).toISOString());
    expect([...world.stores.tables.sessions.values()]).toEqual([
      expect.objectContaining({ orderRef: created.orderRef, returnUrl: 'https://shop.example/done', cancelUrl: 'https://shop.example/cart' }),
    ]);
    await expect(createOrder(deps, platform, OUTLET, { ...input, returnUrl: 'https://evil.example/done' })).rejects.toBeInstanceOf(InvalidRedirectUrlError);
    expect(world.stores.tables.orders.size).toBe(1);
  });
});
