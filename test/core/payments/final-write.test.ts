import { describe, expect, it } from 'vitest';
import { runWithDeadline } from '../../../lib/core/deadline.js';
import { DependencyUnavailableError, PaymentStateConflictError } from '../../../lib/core/errors.js';
import type { PaymentStore } from '../../../lib/core/ports/payment-store.js';
import { gate } from '../support/gate.js';
import { announced } from '../support/outbox.js';
import { coreWorld, newOrder, payDirect, storedPayment, type CoreWorld } from '../support/world.js';

/**
 * The lease holder's final write (lib/core/payments/final-write.ts). Once the acquirer has
 * answered, the answer must not be lost: a failed write is retried within its budget and the
 * invocation's deadline; a write that landed although its answer was lost is recognised by
 * `settledBy`; a write that cannot land leaves the lease for a takeover that asks the acquirer.
 */
const otherCard = { dynamicData: { dynamicDataValue: 'BwAAAAAABk4DWZ4C28yUQAAAAAA=', dynamicDataType: 'CARD_APPLICATION_CRYPTOGRAM_SHORT_FORM' } };
const unavailable = () => new DependencyUnavailableError(undefined, { cause: new Error('DynamoDB throttled (fake)') });

/** The world's payment store, with `finish` replaced. */
function withFinish(
  world: CoreWorld,
  finish: (
    real: PaymentStore['finish'],
    ...args: Parameters<PaymentStore['finish']>
  ) => Promise<ReturnType<PaymentStore['finish']> extends Promise<infer T> ? T : never>,
) {
  const store = world.stores.payments;
  const real = store.finish.bind(store);
  const wrapped: PaymentStore = Object.assign(Object.create(store) as PaymentStore, {
    finish: (...args: Parameters<PaymentStore['finish']>) => finish(real, ...args),
  });
  world.payments.payments = wrapped;
}

describe('the final write', () => {
  it('a store briefly unavailable is retried: the acquirer’s outcome is recorded once, its events announced once', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    let failures = 2;
    withFinish(world, (real, ...args) => (failures-- > 0 ? Promise.reject(unavailable()) : real(...args)));
    expect((await payDirect(world, ids)).state).toBe('AUTHORISED');
    expect(failures).toBe(-1);
    expect(world.acquirer.sends(ids.paymentRef)).toBe(1);
    expect(await announced(world, ids)).toEqual(['payment.authorised']);
  });

  it('a write that landed although its answer was lost is recognised by settledBy: the outcome, not a 409, and announced once', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    let lost = 1;
    withFinish(world, async (real, ...args) => {
      const written = await real(...args);
      if (lost-- > 0) throw unavailable();
      return written;
    });
    const paid = await payDirect(world, ids);
    expect(paid.state).toBe('AUTHORISED');
    expect(paid.settledBy).toBeDefined();
    expect(await announced(world, ids)).toEqual(['payment.authorised']);
  });

  it('a write that cannot land before the invocation’s deadline gives up (503) and keeps the lease; the same request, once the lease expired, records the acquirer’s outcome without authorizing again', async () => {
    const world = await coreWorld({ leaseMs: 30_000 });
    const { ids } = await newOrder(world);
    withFinish(world, () => Promise.reject(unavailable()));
    const deadline = { signal: new AbortController().signal, at: Date.now() + 350 };
    await expect(runWithDeadline(deadline, () => payDirect(world, ids))).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(await storedPayment(world, ids)).toMatchObject({ state: 'PROCESSING', leaseUntil: world.clock.now() + 30_000 });

    world.payments.payments = world.stores.payments;
    await expect(payDirect(world, ids)).rejects.toMatchObject({ code: 'PAYMENT_STATE_CONFLICT', retryAfterMs: 30_000 });
    world.clock.advance(30_001);
    expect((await payDirect(world, ids)).state).toBe('AUTHORISED');
    expect(world.acquirer.sends(ids.paymentRef)).toBe(1);
    expect(world.acquirer.lookups(ids.paymentRef)).toBe(1);
  });

  it('a holder stuck past the abandonment window loses its write to the one who settled it: 409, and the acquirer performed one authorization', async () => {
    const world = await coreWorld({ leaseMs: 30_000, authorizerTimeoutMs: 10_000 });
    const { ids } = await newOrder(world);
    const stuck = gate();
    world.acquirer.next(stuck.answer);
    const first = payDirect(world, ids);
    await stuck.reached;
    world.clock.advance(60_000); // expired, and a further lease period: abandoned
    const second = await payDirect(world, ids, otherCard);
    expect(second.state).toBe('AUTHORISED');
    stuck.open();
    await expect(first).rejects.toBeInstanceOf(PaymentStateConflictError);
    expect(world.acquirer.performed.size).toBe(1);
    expect((await storedPayment(world, ids)).settledCredential).toBe(second.settledCredential);
    expect(await announced(world, ids)).toEqual(['payment.authorised']);
  });
});
