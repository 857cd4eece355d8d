import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paymentKey } from '../../../lib/adapters/memory/tables.js';
import { LEASE_RULE, type LeaseOrigin } from '../../../lib/core/domain/lease-rule.js';
import type { Payment } from '../../../lib/core/domain/payment.js';
import { PaymentStateConflictError } from '../../../lib/core/errors.js';
import { takeLease } from '../../../lib/core/payments/lease.js';
import { coreWorld, newOrder, storedPayment, type CoreWorld } from '../support/world.js';

/**
 * takeLease (lib/core/payments/lease.ts), SPEC §3: one attempt at a time; a crashed attempt's
 * lease is taken over only by its own credential once expired; another credential waits until
 * the lease is abandoned; the same credential that settled a payment gets its outcome.
 */
const A = 'direct:card-a';
const B = 'direct:card-b';

async function leasedBy(world: CoreWorld, credential: string, options: { from?: LeaseOrigin; leaseUntil: number; parkedUntil?: number }) {
  const { ids } = await newOrder(world);
  const from = options.from ?? 'STARTED';
  const payment = await storedPayment(world, ids);
  if (from === 'AWAIT_3DS') await forceState(world, payment, 'AWAIT_3DS');
  const now = world.clock.now();
  await world.stores.payments.acquireLease(payment, {
    from,
    leaseId: 'earlier',
    leaseUntil: options.leaseUntil,
    now,
    credential,
    requires: LEASE_RULE.fresh(from),
  });
  if (options.parkedUntil !== undefined) await world.stores.payments.park(payment, 'earlier', options.leaseUntil, options.parkedUntil);
  return { ids, read: await storedPayment(world, ids) };
}

/** Puts a payment into a state by the store's own transitions (lease, then finish). */
async function forceState(world: CoreWorld, payment: Payment, state: 'AWAIT_3DS' | 'AUTHORISED') {
  const now = world.clock.now();
  await world.stores.payments.acquireLease(payment, {
    from: 'STARTED',
    leaseId: 'setup',
    leaseUntil: now + 1,
    now,
    credential: 'setup',
    requires: LEASE_RULE.fresh('STARTED'),
  });
  await world.stores.payments.finish(payment, 'setup', { state }, state === 'AUTHORISED' ? A : undefined, [], now);
}

describe('taking a payment’s lease', () => {
  it('a STARTED payment is leased fresh: held, not a takeover, the lease recorded for the credential', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    const lease = await takeLease(world.payments, await storedPayment(world, ids), { from: 'STARTED', credential: A });
    expect(lease).toMatchObject({ kind: 'held', taken: { takeover: false } });
    expect(await storedPayment(world, ids)).toMatchObject({ state: 'PROCESSING', leaseCredential: A, leaseUntil: world.clock.now() + 30_000 });
  });

  it('a live lease refuses everyone, its own credential too: 409 with Retry-After for the time it has left', async () => {
    const world = await coreWorld();
    const { read } = await leasedBy(world, A, { leaseUntil: world.clock.now() + 12_000 });
    await expect(takeLease(world.payments, read, { from: 'STARTED', credential: A })).rejects.toMatchObject({
      code: 'PAYMENT_STATE_CONFLICT',
      retryAfterMs: 12_000,
    });
    await expect(takeLease(world.payments, read, { from: 'STARTED', credential: B })).rejects.toMatchObject({ retryAfterMs: 12_000 });
  });

  it('an expired lease is taken over by the same credential only — the acquirer will be asked first', async () => {
    const world = await coreWorld();
    const { ids, read } = await leasedBy(world, A, { leaseUntil: world.clock.now() - 1 });
    await expect(takeLease(world.payments, read, { from: 'STARTED', credential: B })).rejects.toBeInstanceOf(PaymentStateConflictError);
    const lease = await takeLease(world.payments, read, { from: 'STARTED', credential: A });
    expect(lease).toMatchObject({ kind: 'held', taken: { takeover: true } });
    expect((await storedPayment(world, ids)).leaseId).toBe(lease.kind === 'held' ? lease.leaseId : undefined);
  });

  it('another credential is told to come back once the lease is abandoned: its expiry (or parked bound) plus one lease period', async () => {
    const world = await coreWorld({ leaseMs: 30_000 });
    const now = world.clock.now();
    const { read } = await leasedBy(world, A, { leaseUntil: now - 1_000, parkedUntil: now + 50_000 });
    await expect(takeLease(world.payments, read, { from: 'STARTED', credential: B })).rejects.toMatchObject({ retryAfterMs: 80_000 });
    world.clock.advance(80_000);
    expect(await takeLease(world.payments, read, { from: 'STARTED', credential: B })).toMatchObject({ kind: 'abandoned', current: { leaseCredential: A } });
  });

  it('a lease taken from AWAIT_3DS is never taken over by a payment attempt from STARTED, nor abandoned to it', async () => {
    const world = await coreWorld();
    const { read } = await leasedBy(world, A, { from: 'AWAIT_3DS', leaseUntil: world.clock.now() - 1 });
    world.clock.advance(10 * 60_000);
    await expect(takeLease(world.payments, read, { from: 'STARTED', credential: A })).rejects.toBeInstanceOf(PaymentStateConflictError);
    expect(await takeLease(world.payments, read, { from: 'AWAIT_3DS', credential: A })).toMatchObject({ kind: 'held', taken: { takeover: true } });
  });

  it('read STARTED, but meanwhile leased for the same credential and expired: taken over (the other transition, asked once)', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    const read = await storedPayment(world, ids);
    const now = world.clock.now();
    await world.stores.payments.acquireLease(read, {
      from: 'STARTED',
      leaseId: 'crashed',
      leaseUntil: now - 1,
      now,
      credential: A,
      requires: LEASE_RULE.fresh('STARTED'),
    });
    expect(await takeLease(world.payments, read, { from: 'STARTED', credential: A })).toMatchObject({ kind: 'held', taken: { takeover: true } });
  });

  it('read PROCESSING, but meanwhile given back: leased fresh, not a takeover', async () => {
    const world = await coreWorld();
    const { ids, read } = await leasedBy(world, A, { leaseUntil: world.clock.now() - 1 });
    await world.stores.payments.release(read, 'earlier', 'STARTED', world.clock.now());
    expect(await takeLease(world.payments, read, { from: 'STARTED', credential: A })).toMatchObject({ kind: 'held', taken: { takeover: false } });
    expect((await storedPayment(world, ids)).leaseCredential).toBe(A);
  });

  it('a payment the same credential settled answers as settled (its earlier answer was lost); another credential gets 409 without Retry-After', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    await forceState(world, await storedPayment(world, ids), 'AUTHORISED');
    const read = await storedPayment(world, ids);
    expect(await takeLease(world.payments, read, { from: 'STARTED', credential: A })).toMatchObject({ kind: 'settled', payment: { state: 'AUTHORISED' } });
    await expect(takeLease(world.payments, read, { from: 'STARTED', credential: B })).rejects.toMatchObject({ retryAfterMs: undefined });
  });

  it('our own lease met by a retried write (its answer lost) is recognised as ours, and counted as a takeover so the acquirer is asked', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    const read = await storedPayment(world, ids);
    const store = world.stores.payments;
    // The first attempt of the write lands, its answer is lost; the SDK's retry meets the lease it wrote.
    const lossy = Object.create(store) as typeof store;
    lossy.acquireLease = async (payment, lease) => {
      await store.acquireLease(payment, lease);
      return store.acquireLease(payment, lease);
    };
    const lease = await takeLease({ ...world.payments, payments: lossy }, read, { from: 'STARTED', credential: A });
    expect(lease).toMatchObject({ kind: 'held', taken: { takeover: true } });
  });

  it('for any stored payment, the lease is held exactly when LEASE_RULE allows one of its transitions — never two leases, never a settled payment', async () => {
    const world = await coreWorld({ leaseMs: 30_000 });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Payment['state']>('STARTED', 'PROCESSING', 'AWAIT_3DS', 'AUTHORISED', 'FAILED'),
        fc.constantFrom<LeaseOrigin>('STARTED', 'AWAIT_3DS'),
        fc.integer({ min: -40_000, max: 40_000 }),
        fc.constantFrom(A, B),
        async (state, leaseFrom, untilOffset, holder) => {
          const { ids } = await newOrder(world);
          const now = world.clock.now();
          const stored = await storedPayment(world, ids);
          const lease = { leaseId: 'x', leaseFrom, leaseUntil: now + untilOffset, leaseCredential: holder };
          world.stores.tables.payments.get(paymentKey(ids.orderRef, ids.paymentRef))!.payment = { ...stored, state, ...(state === 'PROCESSING' ? lease : {}) };
          const read = await storedPayment(world, ids);
          const allowed = state === 'STARTED' || (state === 'PROCESSING' && leaseFrom === 'STARTED' && untilOffset < 0 && holder === A);
          const result = await takeLease(world.payments, read, { from: 'STARTED', credential: A }).catch((error: unknown) => error);
          if (allowed) {
            expect(result).toMatchObject({ kind: 'held' });
            expect((await storedPayment(world, ids)).leaseCredential).toBe(A);
          } else {
            expect(result === undefined || (result as { kind?: string }).kind !== 'held').toBe(true);
            expect((await storedPayment(world, ids)).version).toBe(read.version);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
