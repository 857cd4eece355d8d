import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPaid } from '../../../lib/core/domain/payment.js';
import { PaymentStateConflictError } from '../../../lib/core/errors.js';
import { cancelPaymentLink, currentState } from '../../../lib/core/links/payment-links.js';
import type { LinkStore } from '../../../lib/core/ports/link-store.js';
import { gate } from '../support/gate.js';
import { cancelLink, linkDeps, newLink, openLink } from '../support/links.js';
import { BASE_URL, coreWorld, OUTLET, payDirect, platform, storedPayment } from '../support/world.js';

/**
 * A cancel crossing a payment of the link's order (lib/core/links/link-cancellation.ts): the
 * payment checks the link after taking its lease, the cancel checks the payments after its own
 * write, so at least one sees the other — and each side's answer is true of what the link ends
 * as: a cancel answered 200 took no money, a payment that went through left the link PAID.
 */
describe('a cancel and a payment crossing', () => {
  it('no cancel while a payment of the link’s order is at the acquirer (409 under way); the payment goes through and the link is PAID', async () => {
    const world = await coreWorld({ authorizerTimeoutMs: 5_000 });
    const link = await newLink(world);
    const { ids } = await openLink(world, link.linkRef);
    const held = gate();
    world.acquirer.next(held.answer);
    const paying = payDirect(world, ids);
    await held.reached;
    await expect(cancelLink(world, link.linkRef)).rejects.toMatchObject({ message: 'A payment of this link is under way; it cannot be cancelled now.' });
    held.open();
    expect((await paying).state).toBe('AUTHORISED');
    expect(await currentState(linkDeps(world), (await world.stores.links.get(link.linkRef))!)).toBe('PAID');
  });

  it('a payment that took its lease between the cancel’s check and its write: the cancel sees it after the write and undoes itself (409)', async () => {
    const world = await coreWorld({ authorizerTimeoutMs: 5_000 });
    const link = await newLink(world);
    const { ids } = await openLink(world, link.linkRef);
    const held = gate();
    world.acquirer.next(held.answer);
    let paying: Promise<unknown> | undefined;
    const links = world.stores.links;
    const racing: LinkStore = Object.assign(Object.create(links) as LinkStore, {
      cancel: async (...args: Parameters<LinkStore['cancel']>) => {
        paying = payDirect(world, ids); // leases, finds the link open, and waits at the acquirer
        await held.reached;
        return links.cancel(...args);
      },
    });
    await expect(cancelPaymentLink({ ...linkDeps(world), links: racing }, platform, OUTLET, link.linkRef, BASE_URL)).rejects.toBeInstanceOf(
      PaymentStateConflictError,
    );
    expect((await links.get(link.linkRef))?.cancelledAt).toBeUndefined();
    held.open();
    await paying;
    expect((await storedPayment(world, ids)).state).toBe('AUTHORISED');
  });

  it('any interleaving of a cancel and a payment: a cancel answered 200 took no money, a payment that went through left no cancelled link', {
    timeout: 120_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const world = await coreWorld({ authorizerTimeoutMs: 60_000 });
        const link = await newLink(world);
        const { ids } = await openLink(world, link.linkRef);
        const slow = <T extends object>(target: T, methods: (keyof T)[]): T => {
          const proxy = Object.create(target) as T;
          for (const method of methods) {
            const real = (target[method] as (...args: unknown[]) => Promise<unknown>).bind(target);
            (proxy as Record<keyof T, unknown>)[method] = async (...args: unknown[]) => {
              await s.schedule(Promise.resolve(), String(method));
              return s.schedule(real(...args), `${String(method)} answered`);
            };
          }
          return proxy;
        };
        const links = slow(world.stores.links, ['get', 'cancel', 'undoCancel', 'makeCancelFinal']);
        const orders = slow(world.stores.orders, ['get']);
        world.payments.links = links;
        world.payments.payments = slow(world.stores.payments, ['acquireLease', 'finish', 'release', 'park']);
        world.acquirer.otherwise = async (_call, perform) => s.schedule(Promise.resolve(perform()), 'acquirer');
        const cancel = cancelPaymentLink({ ...linkDeps(world), links, orders }, platform, OUTLET, link.linkRef, BASE_URL);
        const payment = payDirect(world, ids);
        const [cancelled, paid] = await s.waitFor(Promise.allSettled([cancel, payment]));

        const stored = await world.stores.links.get(link.linkRef);
        const taken = world.acquirer.performed.has(ids.paymentRef);
        const order = (await world.stores.orders.get(ids.orderRef))!;
        if (cancelled.status === 'fulfilled') {
          expect(stored?.cancelledAt).toBeDefined();
          expect(taken).toBe(false);
          expect(paid.status).toBe('rejected');
          expect(isPaid(order.payments)).toBe(false);
        }
        if (paid.status === 'fulfilled') {
          expect(stored?.cancelledAt).toBeUndefined();
          expect(await currentState(linkDeps(world), stored!)).toBe('PAID');
        }
        if (taken) expect(stored?.cancelledAt).toBeUndefined();
        // Someone always wins: never both refused.
        expect(cancelled.status === 'fulfilled' || paid.status === 'fulfilled').toBe(true);
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 150) },
    );
  });
});
