import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OperationKind } from '../../../lib/core/domain/payment.js';
import type { LifecycleDeps } from '../../../lib/core/operations/deps.js';
import { OperationNotPerformedError, type Authorizer } from '../../../lib/core/ports/authorizer.js';
import { operate } from '../support/operations.js';
import { byEnvironment } from '../support/acquirer.js';
import { authorisedPayment, coreWorld, storedPayment, type CoreWorld } from '../support/world.js';

/**
 * SPEC 4.11–4.13 and §3 as properties: whatever the interleaving of concurrent operations on one
 * payment — each store write and each acquirer call released in an order fast-check picks — and
 * whatever the acquirer does to each call, no more is captured than was authorized and no more
 * refunded than was captured, at the acquirer or on record; the record never shows more than the
 * acquirer did; nothing is sent again while an earlier call of it may still land. Once every
 * request has come back after the windows, the record holds exactly what the acquirer did.
 */
type Fate = 'approve' | 'decline' | 'not-sent' | 'lost-answer' | 'lost-request';
interface Request {
  kind: OperationKind;
  amount: number | undefined;
  fate: Fate;
  twice: boolean;
}
const AUTHORIZED = 10_000;

const fate = fc.constantFrom<Fate>('approve', 'approve', 'decline', 'not-sent', 'lost-answer', 'lost-request');
const captures = fc.array(
  fc.record({
    kind: fc.constant<OperationKind>('CAPTURE'),
    amount: fc.option(fc.integer({ min: 1, max: 6_000 }), { nil: undefined }),
    fate,
    twice: fc.boolean(),
  }),
  { minLength: 2, maxLength: 5 },
);
const mixed = fc.array(
  fc.record({
    kind: fc.constantFrom<OperationKind>('CAPTURE', 'CAPTURE', 'REFUND', 'REFUND', 'REVERSAL'),
    amount: fc.option(fc.integer({ min: 1, max: 6_000 }), { nil: undefined }),
    fate,
    twice: fc.boolean(),
  }),
  { minLength: 2, maxLength: 6 },
);

/** Each method's work happens only when the scheduler releases it, and its answer only when released again. */
function scheduled<T extends object>(s: fc.Scheduler, target: T, methods: (keyof T)[], label: string): T {
  const proxy = Object.create(target) as T;
  for (const method of methods) {
    const real = (target[method] as (...args: unknown[]) => Promise<unknown>).bind(target);
    (proxy as Record<keyof T, unknown>)[method] = async (...args: unknown[]) => {
      await s.schedule(Promise.resolve(), `${label}.${String(method)}`);
      return s.schedule(real(...args), `${label}.${String(method)} answered`);
    };
  }
  return proxy;
}

/** The acquirer answers each reference's first call with its fate, later ones (and once `fates` is cleared) with approval. */
function acquirerWithFates(world: CoreWorld, requests: readonly Request[]) {
  const fates = new Map(requests.map((request, n) => [`op-${n}`, request.fate]));
  const certainlyNotSent: string[] = [];
  world.acquirer.otherwise = async (call, perform) => {
    const fate = fates.get(call.idempotencyKey) ?? 'approve';
    fates.delete(call.idempotencyKey);
    if (fate === 'not-sent') {
      certainlyNotSent.push(call.idempotencyKey);
      throw new OperationNotPerformedError('refused before sending (fake)');
    }
    if (fate === 'lost-request') throw new Error('socket hang up (fake): never arrived');
    if (fate === 'decline') return perform(false);
    const outcome = perform();
    if (fate === 'lost-answer') throw new Error('socket hang up (fake): performed, answer lost');
    return outcome;
  };
  return { fates, certainlyNotSent };
}

/** What the acquirer performed and approved, by kind. */
function atAcquirer(world: CoreWorld, kind: OperationKind): number {
  return [...world.acquirer.performed.entries()]
    .filter(([key, performed]) => key.startsWith('op-') && performed.kind === kind && performed.outcome.kind === 'approved')
    .reduce((sum, [, performed]) => sum + performed.amount, 0);
}

async function runInterleaved(s: fc.Scheduler, requests: readonly Request[]) {
  const world = await coreWorld({ authorizerTimeoutMs: 60_000, inFlightMs: 60_000 });
  const { ids } = await authorisedPayment(world);
  const acquirer = acquirerWithFates(world, requests);
  const real: LifecycleDeps = { ...world.lifecycle };
  world.lifecycle = {
    ...real,
    orders: scheduled(s, real.orders, ['get'], 'orders'),
    payments: scheduled(s, real.payments, ['get'], 'payments'),
    operations: scheduled(s, real.operations, ['reserve', 'claim', 'succeed', 'fail'], 'operations'),
    authorizers: byEnvironment({ production: scheduled<Authorizer>(s, world.acquirer, ['modify', 'recover'], 'acquirer'), sandbox: world.acquirers.sandbox }),
  };
  const send = (request: Request, n: number) => operate(world, ids, request.kind, `op-${n}`, request.kind === 'REVERSAL' ? undefined : request.amount);
  const runs = requests.flatMap((request, n) => Array.from({ length: request.twice ? 2 : 1 }, () => send(request, n)));
  await s.waitFor(Promise.allSettled(runs));

  /** What must hold at every moment: record and acquirer within their bounds, the record never ahead of the acquirer. */
  const invariants = async () => {
    const payment = await storedPayment(world, ids);
    const ops = Object.entries(payment.operations ?? {});
    const total = (kind: OperationKind, state: string) =>
      ops.filter(([, op]) => op.kind === kind && op.state === state).reduce((sum, [, op]) => sum + op.amount, 0);
    expect(atAcquirer(world, 'CAPTURE')).toBeLessThanOrEqual(AUTHORIZED);
    expect(atAcquirer(world, 'REFUND')).toBeLessThanOrEqual(atAcquirer(world, 'CAPTURE'));
    if (atAcquirer(world, 'REVERSAL') > 0) expect(atAcquirer(world, 'CAPTURE')).toBe(0);
    expect(payment.capturedAmount).toBe(total('CAPTURE', 'SUCCEEDED'));
    expect(payment.refundedAmount).toBe(total('REFUND', 'SUCCEEDED'));
    expect(payment.refundedAmount!).toBeLessThanOrEqual(payment.capturedAmount!);
    expect(payment.capturedAmount!).toBeLessThanOrEqual(atAcquirer(world, 'CAPTURE'));
    expect(payment.refundedAmount!).toBeLessThanOrEqual(atAcquirer(world, 'REFUND'));
    for (const [ref, op] of ops)
      if (op.state === 'SUCCEEDED') expect(world.acquirer.performed.get(ref)).toMatchObject({ amount: op.amount, outcome: { kind: 'approved' } });
    return payment;
  };

  await invariants();
  for (const [n] of requests.entries()) {
    const ref = `op-${n}`;
    expect(
      world.acquirer.sends(ref) - acquirer.certainlyNotSent.filter((key) => key === ref).length,
      `${ref} sent again while it may land`,
    ).toBeLessThanOrEqual(1);
  }

  // Every request comes back once the windows have passed: the record converges on what the acquirer did.
  world.lifecycle = real;
  acquirer.fates.clear();
  world.clock.advance(3 * 60_000);
  for (const [n, request] of requests.entries()) await send(request, n).catch(() => undefined);
  const final = await invariants();
  expect(Object.values(final.operations ?? {}).filter((op) => op.state === 'PENDING')).toEqual([]);
  expect(final.capturedAmount).toBe(atAcquirer(world, 'CAPTURE'));
  expect(final.refundedAmount).toBe(atAcquirer(world, 'REFUND'));
  if (atAcquirer(world, 'REVERSAL') > 0) expect(final.state).toBe('REVERSED');
}

const runs = Number(process.env.PROPERTY_RUNS ?? 100);

describe('concurrent operations on one payment', () => {
  it('any interleaving of captures never captures more than the authorization, sends none twice while it may land, and ends recording what the acquirer did', {
    timeout: 600_000,
  }, async () => {
    await fc.assert(fc.asyncProperty(fc.scheduler(), captures, runInterleaved), { numRuns: runs });
  });

  it('any interleaving of captures, refunds and a reversal never refunds more than was captured nor reverses a captured payment, at the acquirer or on record', {
    timeout: 600_000,
  }, async () => {
    await fc.assert(fc.asyncProperty(fc.scheduler(), mixed, runInterleaved), { numRuns: runs });
  });
});
