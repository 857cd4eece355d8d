import { describe, expect, it } from 'vitest';
import { orderRepository } from '../../lib/composition/core.js';
import { paymentDeps, paymentRepository } from '../../lib/composition/payments.js';
import type { Payment } from '../../lib/core/domain/payment.js';
import { LEASE_RULE } from '../../lib/core/domain/lease-rule.js';
import { takeLease } from '../../lib/core/payments/lease.js';
import { seedWorld } from '../support/seed.js';

/**
 * The lease asks for one transition, chosen from the item just read (payment-repository.ts):
 * from STARTED, or over an expired lease of the same credential. When the item changed between
 * the read and the lease, the other transition is asked for once, so the answer is the one a
 * single OR-ed condition would give (SPEC §3: one attempt at a time, a crashed one taken over).
 */
const credential = 'checkout:same';
const claim = { from: 'STARTED' as const, credential };

async function paymentOf(world: { orderRef: string; paymentRef: string }): Promise<Payment> {
  return (await orderRepository.get(world.orderRef))!.payments.find((p) => p.paymentRef === world.paymentRef)!;
}

describe('lease transitions from a stale read', () => {
  it('read STARTED, but meanwhile leased for the same credential and expired: taken over (the acquirer will be asked)', async () => {
    const world = await seedWorld();
    const read = await paymentOf(world);
    const now = Date.now();
    await paymentRepository.acquireLease(world, {
      from: 'STARTED',
      requires: LEASE_RULE.fresh('STARTED'),
      leaseId: 'crashed',
      leaseUntil: now - 1_000,
      now,
      credential,
    });
    const lease = await takeLease(paymentDeps, read, claim);
    expect(lease.kind).toBe('held');
    expect(lease.kind === 'held' && lease.taken.takeover).toBe(true);
    expect((await paymentOf(world)).leaseId).toBe(lease.kind === 'held' ? lease.leaseId : undefined);
  });

  it('read PROCESSING (an expired lease), but meanwhile given back: leased from STARTED, not a takeover', async () => {
    const world = await seedWorld();
    const now = Date.now();
    await paymentRepository.acquireLease(world, {
      from: 'STARTED',
      requires: LEASE_RULE.fresh('STARTED'),
      leaseId: 'crashed',
      leaseUntil: now - 1_000,
      now,
      credential,
    });
    const read = await paymentOf(world);
    expect(read.state).toBe('PROCESSING');
    await paymentRepository.release(world, 'crashed', 'STARTED', Date.now());
    const lease = await takeLease(paymentDeps, read, claim);
    expect(lease.kind === 'held' && lease.taken.takeover).toBe(false);
  });

  it('read STARTED, but meanwhile leased by another credential (live): 409 with Retry-After, no second lease', async () => {
    const world = await seedWorld();
    const read = await paymentOf(world);
    const now = Date.now();
    await paymentRepository.acquireLease(world, {
      from: 'STARTED',
      requires: LEASE_RULE.fresh('STARTED'),
      leaseId: 'busy',
      leaseUntil: now + 60_000,
      now,
      credential: 'checkout:other',
    });
    const failure = await takeLease(paymentDeps, read, claim).catch((error: { status: number; headers?: Record<string, string> }) => error);
    expect(failure).toMatchObject({ code: 'PAYMENT_STATE_CONFLICT', retryAfterMs: expect.any(Number) });
    expect((await paymentOf(world)).leaseId).toBe('busy');
  });

  it('an expired lease of another credential is never taken over by the takeover condition', async () => {
    const world = await seedWorld();
    const now = Date.now();
    await paymentRepository.acquireLease(world, {
      from: 'STARTED',
      requires: LEASE_RULE.fresh('STARTED'),
      leaseId: 'crashed',
      leaseUntil: now - 1_000,
      now,
      credential: 'checkout:other',
    });
    const taken = paymentRepository.acquireLease(world, {
      from: 'STARTED',
      leaseId: 'mine',
      leaseUntil: now + 30_000,
      now,
      credential,
      requires: LEASE_RULE.takeover('STARTED', credential, now),
    });
    await expect(taken).rejects.toMatchObject({ name: 'StoreConflictError' });
    expect((await paymentOf(world)).leaseId).toBe('crashed');
  });
});
