import { describe, expect, it } from 'vitest';
import {
  AmountExceedsAvailableError,
  AmountMismatchError,
  IdempotencyKeyReusedError,
  NotFoundError,
  PaymentStateConflictError,
} from '../../../lib/core/errors.js';
import { modifyPayment } from '../../../lib/core/operations/modify-payment.js';
import { announced } from '../support/outbox.js';
import { capture, operate, refund, reverse } from '../support/operations.js';
import { authorisedPayment, coreWorld, newOrder, recordedMetrics, storedPayment, tenantPrincipal } from '../support/world.js';

/**
 * Captures, reversals and refunds (SPEC 4.11–4.13, lib/core/operations/modify-payment.ts): each
 * lives on the payment under its own reference (the acquirer's idempotency key); its amount is
 * reserved by the write that starts it, so totals never exceed what was authorized or captured.
 */
describe('captures (4.11)', () => {
  it('a partial capture is sent once under its reference: PARTIALLY_CAPTURED, the totals moved, the event announced', async () => {
    const metrics = recordedMetrics();
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    const captured = await capture(world, ids, 'cap-1', 4_000);
    expect(captured).toMatchObject({ state: 'PARTIALLY_CAPTURED', capturedAmount: 4_000, capturable: 6_000, refundable: 4_000 });
    expect(captured.operations!['cap-1']).toMatchObject({ kind: 'CAPTURE', amount: 4_000, state: 'SUCCEEDED' });
    expect(world.acquirer.calls.at(-1)).toEqual({ method: 'modify', idempotencyKey: 'cap-1', kind: 'CAPTURE', amount: 4_000, paymentRef: ids.paymentRef });
    expect(await announced(world, ids)).toEqual(['payment.authorised', 'payment.partially_captured']);
    expect(metrics).toContainEqual({ name: 'PaymentOperations', dimensions: { operation: 'capture', outcome: 'succeeded' }, value: 1 });
  });

  it('an omitted amount captures all that is left: CAPTURED', async () => {
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    await capture(world, ids, 'cap-1', 2_500);
    expect(await capture(world, ids, 'cap-2')).toMatchObject({ state: 'CAPTURED', capturedAmount: 10_000, capturable: 0 });
    expect(world.acquirer.performed.get('cap-2')?.amount).toBe(7_500);
  });

  it('captures add up to at most the authorization: one beyond what is left is 422 and never sent', async () => {
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    await capture(world, ids, 'cap-1', 6_000);
    await expect(capture(world, ids, 'cap-2', 4_001)).rejects.toBeInstanceOf(AmountExceedsAvailableError);
    expect(world.acquirer.sends('cap-2')).toBe(0);
    expect((await storedPayment(world, ids)).capturable).toBe(4_000);
  });

  it('a declined capture fails with the acquirer’s code and gives its amount back', async () => {
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    world.acquirer.next('decline');
    const declined = await capture(world, ids, 'cap-1', 4_000);
    expect(declined).toMatchObject({ state: 'AUTHORISED', capturable: 10_000 });
    expect(declined.operations!['cap-1']).toMatchObject({ state: 'FAILED', failure: { code: 'INSUFFICIENT_FUNDS' } });
    // The acquirer's own refusal is the answer to that reference: asked again, nothing is sent.
    expect((await capture(world, ids, 'cap-1', 4_000)).operations!['cap-1']!.state).toBe('FAILED');
    expect(world.acquirer.sends('cap-1')).toBe(1);
  });

  it('a payment not authorised yet cannot be captured (409), and nothing is reserved', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    await expect(capture(world, ids, 'cap-1', 1_000)).rejects.toMatchObject({
      code: 'PAYMENT_STATE_CONFLICT',
      message: 'A payment in state STARTED cannot be captured.',
    });
  });
});

describe('reversals (4.12) and refunds (4.13)', () => {
  it('a reversal voids an authorization with nothing captured: REVERSED, nothing left to capture', async () => {
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    expect(await reverse(world, ids, 'rev-1')).toMatchObject({ state: 'REVERSED', capturable: 0 });
    expect(world.acquirer.performed.get('rev-1')).toMatchObject({ kind: 'REVERSAL', amount: 10_000 });
    await expect(capture(world, ids, 'cap-1', 1)).rejects.toBeInstanceOf(PaymentStateConflictError);
  });

  it('no reversal once anything is captured — or being captured', async () => {
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    await capture(world, ids, 'cap-1', 1);
    await expect(reverse(world, ids, 'rev-1')).rejects.toBeInstanceOf(PaymentStateConflictError);
    const pending = await coreWorld();
    const other = await authorisedPayment(pending);
    pending.acquirer.next('hang');
    await expect(capture(pending, other.ids, 'cap-1', 1)).rejects.toMatchObject({ code: 'AUTHORIZATION_UNAVAILABLE' });
    await expect(reverse(pending, other.ids, 'rev-1')).rejects.toBeInstanceOf(PaymentStateConflictError);
  });

  it('refunds add up to at most what was captured, and a refund ends capturing', async () => {
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    await capture(world, ids, 'cap-1', 6_000);
    expect(await refund(world, ids, 'ref-1', 2_000)).toMatchObject({ state: 'PARTIALLY_REFUNDED', refundedAmount: 2_000, refundable: 4_000 });
    await expect(refund(world, ids, 'ref-2', 4_001)).rejects.toBeInstanceOf(AmountExceedsAvailableError);
    await expect(capture(world, ids, 'cap-2', 1_000)).rejects.toBeInstanceOf(PaymentStateConflictError);
    expect(await refund(world, ids, 'ref-3')).toMatchObject({ state: 'REFUNDED', refundedAmount: 6_000, refundable: 0 });
    expect(await announced(world, ids)).toEqual(['payment.authorised', 'payment.partially_captured', 'payment.partially_refunded', 'payment.refunded']);
  });

  it('a PURCHASE’s sale capture is refundable at once; an uncaptured authorization is not', async () => {
    const world = await coreWorld();
    const sale = await authorisedPayment(world, { action: 'PURCHASE' });
    expect(await refund(world, sale.ids, 'ref-1')).toMatchObject({ state: 'REFUNDED', refundedAmount: 10_000 });
    const auth = await authorisedPayment(world);
    await expect(refund(world, auth.ids, 'ref-1', 1)).rejects.toBeInstanceOf(PaymentStateConflictError);
  });
});

describe('one operation per reference', () => {
  it('the same request again (its answer lost) answers the settled operation and sends nothing more', async () => {
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    const first = await capture(world, ids, 'cap-1', 3_000);
    expect(await capture(world, ids, 'cap-1', 3_000)).toEqual(first);
    expect(await capture(world, ids, 'cap-1')).toEqual(first); // an omitted amount names none: the same request
    expect(world.acquirer.sends('cap-1')).toBe(1);
  });

  it('the same reference with another amount is another request: 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    await capture(world, ids, 'cap-1', 3_000);
    await expect(capture(world, ids, 'cap-1', 3_001)).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
  });

  it('an amount in another currency is refused (422) before anything is reserved', async () => {
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    await expect(operate(world, ids, 'CAPTURE', 'cap-1', 1_000, 'USD')).rejects.toBeInstanceOf(AmountMismatchError);
    expect((await storedPayment(world, ids)).operations).toEqual({});
  });

  it('a payment takes at most maxOperations captures and refunds', async () => {
    const world = await coreWorld();
    world.lifecycle.settings.maxOperations = 2;
    const { ids } = await authorisedPayment(world);
    await capture(world, ids, 'cap-1', 1);
    await capture(world, ids, 'cap-2', 1);
    await expect(capture(world, ids, 'cap-3', 1)).rejects.toMatchObject({ code: 'PAYMENT_STATE_CONFLICT' });
  });

  it('another tenant’s or outlet’s payment is not found (404)', async () => {
    const world = await coreWorld();
    const { ids } = await authorisedPayment(world);
    const input = { kind: 'CAPTURE' as const, ref: 'cap-1' };
    await expect(modifyPayment(world.lifecycle, tenantPrincipal({ tenantRef: 'another' }), ids, input, { logger: world.logger })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(capture(world, { ...ids, outletId: 'another-outlet' }, 'cap-1')).rejects.toBeInstanceOf(NotFoundError);
  });
});
