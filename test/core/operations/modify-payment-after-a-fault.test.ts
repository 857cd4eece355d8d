import { describe, expect, it } from 'vitest';
import { NOT_PERFORMED } from '../../../lib/core/domain/payment.js';
import { AmountExceedsAvailableError, AuthorizationUnavailableError, DependencyUnavailableError } from '../../../lib/core/errors.js';
import { AcquirerNotReachedError } from '../../../lib/core/ports/authorizer.js';
import type { PaymentOperationsStore } from '../../../lib/core/ports/payment-operations-store.js';
import { gate } from '../support/gate.js';
import { capture, reverse } from '../support/operations.js';
import { authorisedPayment, coreWorld, storedPayment, type CoreWorld } from '../support/world.js';

/**
 * SPEC §3 ("at most once per operation") and 4.13 "Operations after a fault": whatever happened
 * to a capture's request, its own request coming back performs it — at most once at the
 * acquirer — and answers; FAILED NOT_PERFORMED is only an outcome the service chose, never the
 * pinned answer to a request the merchant was told to retry. (Captures stand for reversals and
 * refunds: they share the path.) The world's in-flight window is 25 ms of timeout + 60 s.
 */
const WINDOW = 60_025;

describe('a capture whose call certainly did not reach the acquirer', () => {
  it('answers 502 and frees its amount at once (FAILED NOT_PERFORMED); the same request coming back performs it, once', async () => {
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    world.acquirer.next('not-sent');
    await expect(capture(world, ids, 'cap-1', 4_000)).rejects.toBeInstanceOf(AcquirerNotReachedError);
    expect(await storedPayment(world, ids)).toMatchObject({
      capturable: 10_000,
      operations: { 'cap-1': { state: 'FAILED', failure: { code: NOT_PERFORMED } } },
    });
    const done = await capture(world, ids, 'cap-1', 4_000);
    expect(done).toMatchObject({ state: 'PARTIALLY_CAPTURED', capturedAmount: 4_000 });
    expect(world.acquirer.performed.get('cap-1')?.amount).toBe(4_000);
  });

  it('its freed amount may be taken by another capture meanwhile: then the request coming back is told so (422), and nothing is sent', async () => {
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    world.acquirer.next('not-sent');
    await expect(capture(world, ids, 'cap-1', 4_000)).rejects.toBeInstanceOf(AcquirerNotReachedError);
    await capture(world, ids, 'cap-2', 8_000);
    await expect(capture(world, ids, 'cap-1', 4_000)).rejects.toBeInstanceOf(AmountExceedsAvailableError);
    expect(world.acquirer.performed.has('cap-1')).toBe(false);
  });
});

describe('a capture whose call may have reached the acquirer', () => {
  it('stays PENDING with its amount reserved (502 with Retry-After until the call can no longer land)', async () => {
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    world.acquirer.next('hang');
    await expect(capture(world, ids, 'cap-1', 4_000)).rejects.toMatchObject({ code: 'AUTHORIZATION_UNAVAILABLE', retryAfterMs: WINDOW });
    expect(await storedPayment(world, ids)).toMatchObject({ capturable: 6_000, operations: { 'cap-1': { state: 'PENDING', sentBy: expect.any(String) } } });
  });

  it('the same request while the call may still land asks the acquirer and sends nothing (502 with the time left)', async () => {
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    world.acquirer.next('hang');
    await expect(capture(world, ids, 'cap-1', 4_000)).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    world.clock.advance(10_000);
    await expect(capture(world, ids, 'cap-1', 4_000)).rejects.toMatchObject({ code: 'AUTHORIZATION_UNAVAILABLE', retryAfterMs: WINDOW - 10_000 });
    expect(world.acquirer.sends('cap-1')).toBe(1);
    expect(world.acquirer.lookups('cap-1')).toBe(1);
  });

  it('a lost answer: the same request records what the acquirer did (lookup), never sends it again', async () => {
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    world.acquirer.next('lost-answer');
    await expect(capture(world, ids, 'cap-1', 4_000)).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    expect(await capture(world, ids, 'cap-1', 4_000)).toMatchObject({ state: 'PARTIALLY_CAPTURED', capturedAmount: 4_000 });
    expect(world.acquirer.sends('cap-1')).toBe(1);
  });

  it('once the call can no longer land and the acquirer never had it, the same request sends it again under the same reference', async () => {
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    world.acquirer.next('hang');
    await expect(capture(world, ids, 'cap-1', 4_000)).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    world.clock.advance(WINDOW);
    expect(await capture(world, ids, 'cap-1', 4_000)).toMatchObject({ capturedAmount: 4_000 });
    expect(world.acquirer.calls.filter((call) => call.idempotencyKey === 'cap-1').map((call) => call.method)).toEqual(['modify', 'lookup', 'modify']);
    expect(world.acquirer.performed.get('cap-1')?.amount).toBe(4_000);
  });

  it('a lookup that fails answers 502 and sends nothing', async () => {
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    world.acquirer.next('hang');
    await expect(capture(world, ids, 'cap-1', 4_000)).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    world.clock.advance(WINDOW);
    world.acquirer.nextLookup('fail');
    await expect(capture(world, ids, 'cap-1', 4_000)).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    expect(world.acquirer.sends('cap-1')).toBe(1);
  });
});

describe('a reservation whose request answered before it landed', () => {
  /** The operations store, its reservation landing while the request is told 503 (DynamoDB stalled at the write). */
  function reservationLandsLate(world: CoreWorld) {
    const store = world.stores.operations;
    let once = true;
    const lossy: PaymentOperationsStore = Object.assign(Object.create(store) as PaymentOperationsStore, {
      reserve: async (...args: Parameters<PaymentOperationsStore['reserve']>) => {
        const reserved = await store.reserve(...args);
        if (once) {
          once = false;
          throw new DependencyUnavailableError(undefined, { cause: new Error('DynamoDB timed out (fake)') });
        }
        return reserved;
      },
    });
    world.lifecycle.operations = lossy;
  }

  it('the same request coming back finds it PENDING and never sent: claims it and performs it, once', async () => {
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    reservationLandsLate(world);
    await expect(capture(world, ids, 'cap-1', 4_000)).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(world.acquirer.sends('cap-1')).toBe(0);
    expect(await capture(world, ids, 'cap-1', 4_000)).toMatchObject({ state: 'PARTIALLY_CAPTURED', capturedAmount: 4_000 });
    expect(world.acquirer.sends('cap-1')).toBe(1);
  });

  it('left alone past its window, another request gives its amount back (NOT_PERFORMED, the acquirer never had it); the request coming back still performs it', async () => {
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    reservationLandsLate(world);
    await expect(capture(world, ids, 'cap-1', 4_000)).rejects.toBeInstanceOf(DependencyUnavailableError);
    world.clock.advance(WINDOW);
    // Another capture of everything that is left, had cap-1 not held its 4 000.
    await capture(world, ids, 'cap-2', 6_000);
    expect((await storedPayment(world, ids)).operations!['cap-1']).toMatchObject({ state: 'FAILED', failure: { code: NOT_PERFORMED } });
    expect(world.acquirer.lookups('cap-1')).toBe(1);
    expect(await capture(world, ids, 'cap-1', 4_000)).toMatchObject({ state: 'CAPTURED', capturedAmount: 10_000 });
    expect(world.acquirer.sends('cap-1')).toBe(1);
  });
});

describe('another request’s operation left pending past its window', () => {
  it('holds its amount until the next operation asks the acquirer about it: performed → recorded as succeeded', async () => {
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    world.acquirer.next('hang-performed');
    await expect(capture(world, ids, 'cap-1', 4_000)).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    world.clock.advance(WINDOW);
    const after = await capture(world, ids, 'cap-2', 6_000);
    expect(after).toMatchObject({ state: 'CAPTURED', capturedAmount: 10_000 });
    expect(after.operations!['cap-1']).toMatchObject({ state: 'SUCCEEDED' });
    expect(world.acquirer.sends('cap-1')).toBe(1);
  });

  it('never performed → FAILED NOT_PERFORMED, its amount free for the request that asked', async () => {
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    world.acquirer.next('hang');
    await expect(capture(world, ids, 'cap-1', 4_000)).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    world.clock.advance(WINDOW);
    expect(await reverse(world, ids, 'rev-1')).toMatchObject({ state: 'REVERSED' });
    expect((await storedPayment(world, ids)).operations!['cap-1']).toMatchObject({ state: 'FAILED', failure: { code: NOT_PERFORMED } });
    // The capture's own request, back after the reversal: nothing left to capture, nothing sent.
    await expect(capture(world, ids, 'cap-1', 4_000)).rejects.toMatchObject({ code: 'PAYMENT_STATE_CONFLICT' });
    expect(world.acquirer.sends('cap-1')).toBe(1);
  });
});

describe('the same request twice at once', () => {
  it('the claim decides who calls: the acquirer hears the capture once', async () => {
    const world = await coreWorld({ authorizerTimeoutMs: 5_000 });
    const { ids } = await authorisedPayment(world);
    const held = gate();
    world.acquirer.next(held.answer);
    const first = capture(world, ids, 'cap-1', 4_000);
    await held.reached;
    const second = capture(world, ids, 'cap-1', 4_000);
    await expect(second).rejects.toMatchObject({ code: 'AUTHORIZATION_UNAVAILABLE' }); // it asked; the call may still land
    held.open();
    expect(await first).toMatchObject({ capturedAmount: 4_000 });
    expect(world.acquirer.sends('cap-1')).toBe(1);
    expect(await capture(world, ids, 'cap-1', 4_000)).toMatchObject({ capturedAmount: 4_000 });
  });
});
