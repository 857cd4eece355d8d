import { describe, expect, it } from 'vitest';
import { AcquirerNotReachedError } from '../../../lib/core/ports/authorizer.js';
import { decline } from '../../../lib/core/domain/decline.js';
import { authorizationCode } from '../support/acquirer.js';
import { AuthorizationUnavailableError, PaymentStateConflictError } from '../../../lib/core/errors.js';
import { gate } from '../support/gate.js';
import { announced } from '../support/outbox.js';
import { coreWorld, directWalletBody, directWalletCredentialKey, newOrder, payDirect, recordedMetrics, storedPayment } from '../support/world.js';
import { toCredential } from '../../../lib/core/checkout/payment-data.js';

/**
 * SPEC 4.3 steps 8–9 (lib/core/payments/run-payment.ts), through the Direct Wallet use case
 * (4.4), which shares them with 4.3 and 4.10: one attempt at a time, the acquirer asked before
 * anything is sent again, and an outcome recorded once — whatever the acquirer does to the call.
 */
const otherCard = { dynamicData: { dynamicDataValue: 'BwAAAAAABk4DWZ4C28yUQAAAAAA=', dynamicDataType: 'CARD_APPLICATION_CRYPTOGRAM_SHORT_FORM' } };

describe('an answered authorization', () => {
  it('is sent once, under the paymentRef as its idempotency key, and settles the payment AUTHORISED with the acquirer’s code', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    const paid = await payDirect(world, ids);
    expect(paid).toMatchObject({ state: 'AUTHORISED', capturedAmount: 0, capturable: 10_000, refundable: 0 });
    expect(paid.authorization).toEqual({ code: expect.stringMatching(/^[0-9A-F]{6}$/), resultCode: '00', at: new Date(world.clock.now()).toISOString() });
    expect(world.acquirer.calls).toEqual([{ method: 'authorize', idempotencyKey: ids.paymentRef, kind: 'AUTHORIZE', amount: 10_000, eci: '05' }]);
    expect(await storedPayment(world, ids)).toEqual(paid);
    expect(await announced(world, ids)).toEqual(['payment.authorised']);
  });

  it('a PURCHASE order is captured by its authorization: CAPTURED, one sale capture under the paymentRef, both events announced', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world, { action: 'PURCHASE' });
    const paid = await payDirect(world, ids);
    expect(paid).toMatchObject({ state: 'CAPTURED', capturedAmount: 10_000, capturable: 0, refundable: 10_000 });
    expect(paid.operations).toEqual({ [ids.paymentRef]: expect.objectContaining({ kind: 'CAPTURE', amount: 10_000, state: 'SUCCEEDED' }) });
    expect(await announced(world, ids)).toEqual(['payment.authorised', 'payment.captured']);
  });

  it('a decline settles the payment FAILED with the acquirer’s code and announces payment.failed', async () => {
    const world = await coreWorld();
    world.acquirer.next('decline');
    const { ids } = await newOrder(world);
    const failed = await payDirect(world, ids);
    expect(failed).toMatchObject({ state: 'FAILED', failure: { code: 'INSUFFICIENT_FUNDS' } });
    expect(failed.authorization).toBeUndefined();
    expect(await announced(world, ids)).toEqual(['payment.failed']);
  });

  it('the payment keeps only the masked card: no token number, no cryptogram, and the lease’s credential hash is gone', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    await payDirect(world, ids);
    const stored = JSON.stringify(await storedPayment(world, ids));
    const body = directWalletBody();
    expect(stored).not.toContain(body.token!.paymentToken);
    expect(stored).not.toContain('AgAAAAAABk4DWZ4C28yUQAAAAAA=');
    expect(stored).toContain('"tokenLastFour":"3478"');
    expect(await storedPayment(world, ids)).not.toHaveProperty('leaseCredential');
  });

  it('the same request again (its answer lost) gets the settled payment, and the acquirer hears nothing more', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    const first = await payDirect(world, ids);
    world.clock.advance(5_000);
    expect(await payDirect(world, ids)).toEqual(first);
    expect(world.acquirer.calls).toHaveLength(1);
  });

  it('another card on a settled payment is a conflict without Retry-After: a payment is paid at most once', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    await payDirect(world, ids);
    await expect(payDirect(world, ids, otherCard)).rejects.toMatchObject({ code: 'PAYMENT_STATE_CONFLICT', retryAfterMs: undefined });
    expect(world.acquirer.sends(ids.paymentRef)).toBe(1);
  });

  it('records the authorization metric by brand and outcome', async () => {
    const metrics = recordedMetrics();
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    await payDirect(world, ids);
    expect(metrics).toContainEqual({ name: 'Authorizations', dimensions: { environment: 'production', brand: 'VISA', outcome: 'approved' }, value: 1 });
  });
});

describe('one attempt at a time', () => {
  it('while a lease is live, a second request — even the same one — gets 409 with Retry-After for the lease’s remaining time; only the holder reaches the acquirer', async () => {
    const world = await coreWorld({ authorizerTimeoutMs: 5_000 });
    const { ids } = await newOrder(world);
    const held = gate();
    world.acquirer.next(held.answer);
    const first = payDirect(world, ids);
    await held.reached;
    world.clock.advance(10_000);
    await expect(payDirect(world, ids)).rejects.toMatchObject({ code: 'PAYMENT_STATE_CONFLICT', retryAfterMs: 20_000 });
    await expect(payDirect(world, ids, otherCard)).rejects.toBeInstanceOf(PaymentStateConflictError);
    held.open();
    expect((await first).state).toBe('AUTHORISED');
    expect(world.acquirer.sends(ids.paymentRef)).toBe(1);
  });
});

describe('a call that certainly did not reach the acquirer', () => {
  it('gives the lease back at once (502): the payment is STARTED again and any card may pay it right away', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    world.acquirer.next('not-sent');
    const refused = payDirect(world, ids);
    await expect(refused).rejects.toBeInstanceOf(AcquirerNotReachedError);
    await expect(refused).rejects.toMatchObject({ code: 'AUTHORIZATION_UNAVAILABLE', retryAfterMs: undefined });
    const stored = await storedPayment(world, ids);
    expect(stored.state).toBe('STARTED');
    expect(stored).not.toHaveProperty('leaseId');
    expect((await payDirect(world, ids, otherCard)).state).toBe('AUTHORISED');
    expect(world.acquirer.performed.size).toBe(1);
  });
});

describe('a call that may have reached the acquirer (SPEC §3: at most once)', () => {
  it('a timeout parks the lease: 502 with Retry-After for as long as the call could still land, nothing recorded as final', async () => {
    const world = await coreWorld({ inFlightMs: 60_000 });
    const { ids } = await newOrder(world);
    world.acquirer.next('hang');
    await expect(payDirect(world, ids)).rejects.toMatchObject({ code: 'AUTHORIZATION_UNAVAILABLE', retryAfterMs: 60_000 });
    const stored = await storedPayment(world, ids);
    expect(stored).toMatchObject({ state: 'PROCESSING', leaseUntil: world.clock.now(), parkedUntil: world.clock.now() + 60_000 });
  });

  it('the same credential coming back while the call could still land asks the acquirer, and sends nothing (502 with the remaining time)', async () => {
    const world = await coreWorld({ inFlightMs: 60_000 });
    const { ids } = await newOrder(world);
    world.acquirer.next('hang');
    await expect(payDirect(world, ids)).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    world.clock.advance(15_000);
    await expect(payDirect(world, ids)).rejects.toMatchObject({ code: 'AUTHORIZATION_UNAVAILABLE', retryAfterMs: 45_000 });
    expect(world.acquirer.lookups(ids.paymentRef)).toBe(1);
    expect(world.acquirer.sends(ids.paymentRef)).toBe(1);
    expect((await storedPayment(world, ids)).state).toBe('PROCESSING');
  });

  it('once the call can no longer land and the acquirer never had it, the same credential sends it (under the same key) and settles', async () => {
    const world = await coreWorld({ inFlightMs: 60_000 });
    const { ids } = await newOrder(world);
    world.acquirer.next('hang');
    await expect(payDirect(world, ids)).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    world.clock.advance(60_000);
    expect((await payDirect(world, ids)).state).toBe('AUTHORISED');
    expect(world.acquirer.calls.map((call) => call.method)).toEqual(['authorize', 'lookup', 'authorize']);
    expect(world.acquirer.performed.size).toBe(1);
  });

  it('a lost answer: the same credential’s retry records what the acquirer did (lookup) and never authorizes again', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    world.acquirer.next('lost-answer');
    await expect(payDirect(world, ids)).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    world.clock.advance(1_000);
    const paid = await payDirect(world, ids);
    expect(paid.state).toBe('AUTHORISED');
    expect(paid.authorization?.code).toBe(authorizationCode(ids.paymentRef));
    expect(world.acquirer.sends(ids.paymentRef)).toBe(1);
    expect(await announced(world, ids)).toEqual(['payment.authorised']);
  });

  it('a decline whose answer was lost is recorded as the decline, not retried into an approval', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    world.acquirer.next((_call, _perform) => {
      world.acquirer.record(ids.paymentRef, {
        kind: 'AUTHORIZE',
        amount: 10_000,
        paymentRef: ids.paymentRef,
        outcome: { kind: 'declined', decline: decline('DO_NOT_HONOUR', 'fake:05') },
      });
      return Promise.reject(new Error('socket hang up'));
    });
    await expect(payDirect(world, ids)).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    world.clock.advance(1_000);
    expect(await payDirect(world, ids)).toMatchObject({ state: 'FAILED', failure: { code: 'DO_NOT_HONOUR' } });
    expect(world.acquirer.sends(ids.paymentRef)).toBe(1);
  });

  it('a timeout after the call landed: the retry records the acquirer’s approval once the lookup knows it', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    world.acquirer.next('hang-performed');
    await expect(payDirect(world, ids)).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    world.clock.advance(1_000);
    expect((await payDirect(world, ids)).state).toBe('AUTHORISED');
    expect(world.acquirer.sends(ids.paymentRef)).toBe(1);
  });

  it('a lookup that fails keeps the lease parked (502): nothing is sent on a guess', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    world.acquirer.next('lost-request');
    await expect(payDirect(world, ids)).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    world.clock.advance(120_000);
    world.acquirer.nextLookup('fail');
    await expect(payDirect(world, ids)).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    expect(world.acquirer.sends(ids.paymentRef)).toBe(1);
    expect(await storedPayment(world, ids)).toMatchObject({ state: 'PROCESSING', leaseUntil: world.clock.now() });
  });

  it('a lookup that hangs is bounded by the acquirer timeout and keeps the lease parked', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    world.acquirer.next('hang');
    await expect(payDirect(world, ids)).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    world.clock.advance(120_000);
    world.acquirer.nextLookup('hang');
    await expect(payDirect(world, ids)).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    expect(world.acquirer.sends(ids.paymentRef)).toBe(1);
  });
});

describe('a lease another credential left behind', () => {
  it('cannot be taken over by another card while its own credential may still come back: 409 with Retry-After until it is abandoned', async () => {
    const world = await coreWorld({ leaseMs: 30_000, inFlightMs: 60_000 });
    const { ids } = await newOrder(world);
    world.acquirer.next('hang');
    await expect(payDirect(world, ids)).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    world.clock.advance(10_000);
    // Abandoned once parked (60 s) and a further lease period (30 s) have passed: 80 s from now.
    await expect(payDirect(world, ids, otherCard)).rejects.toMatchObject({ code: 'PAYMENT_STATE_CONFLICT', retryAfterMs: 80_000 });
    expect(world.acquirer.calls).toHaveLength(1);
  });

  it('once abandoned, the acquirer is asked: an outcome it has is recorded, with the masked card and credential of the lease that sent it', async () => {
    const world = await coreWorld({ leaseMs: 30_000, inFlightMs: 60_000 });
    const { ids } = await newOrder(world);
    world.acquirer.next('hang-performed');
    await expect(payDirect(world, ids)).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    world.clock.advance(90_000);
    // The newcomer is told the payment is settled — by the other card: no second authorization.
    await expect(payDirect(world, ids, otherCard)).rejects.toBeInstanceOf(PaymentStateConflictError);
    const stored = await storedPayment(world, ids);
    const firstKey = directWalletCredentialKey(ids.paymentRef, toCredential(directWalletBody()));
    expect(stored).toMatchObject({ state: 'AUTHORISED', settledCredential: firstKey, paymentMethod: { type: 'DIRECT_WALLET', tokenLastFour: '3478' } });
    expect(world.acquirer.sends(ids.paymentRef)).toBe(1);
    // …and the abandoned request, back at last, gets its outcome.
    expect((await payDirect(world, ids)).state).toBe('AUTHORISED');
  });

  it('once abandoned and unknown to the acquirer, the payment is freed and the newcomer pays', async () => {
    const world = await coreWorld({ leaseMs: 30_000, inFlightMs: 60_000 });
    const { ids } = await newOrder(world);
    world.acquirer.next('hang');
    await expect(payDirect(world, ids)).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    world.clock.advance(90_000);
    const paid = await payDirect(world, ids, otherCard);
    expect(paid.state).toBe('AUTHORISED');
    expect(paid.settledCredential).not.toBe(directWalletCredentialKey(ids.paymentRef, toCredential(directWalletBody())));
    expect(world.acquirer.performed.size).toBe(1);
  });
});
