import { describe, expect, it } from 'vitest';
import { decryptCheckoutJwe } from '../../../lib/core/checkout/jwe.js';
import { AuthorizationUnavailableError, InvalidRequestError, PaymentStateConflictError } from '../../../lib/core/errors.js';
import { completeThreeDs } from '../../../lib/core/payments/complete-three-ds.js';
import { announced } from '../support/outbox.js';
import { cresFor } from '../support/three-ds.js';
import { coreWorld, newOrder, payDirect, platform, recordedMetrics, storedPayment, type CoreWorld, type OrderIds } from '../support/world.js';

/**
 * 3DS step-up (SPEC 4.3 step 8) and its completion (4.10): a payment whose ECI does not prove
 * authentication waits in AWAIT_3DS with its payment data sealed to the service's key; the
 * outcome is the 3DS server's verdict, never the browser's cres; then the kept data is opened
 * again and authorized with the authenticated ECI — or the payment fails, without the acquirer.
 */
const NOT_AUTHENTICATED = { eci: '07' }; // Visa: not authenticated → risk-based steps up

async function awaiting3ds(world: CoreWorld): Promise<{ ids: OrderIds; challenge: CoreWorld['threeDs']['started'][number] }> {
  const { ids } = await newOrder(world);
  const waiting = await payDirect(world, ids, NOT_AUTHENTICATED);
  expect(waiting.state).toBe('AWAIT_3DS');
  return { ids, challenge: world.threeDs.started.at(-1)! };
}

const complete = (world: CoreWorld, ids: OrderIds, cres: string) => completeThreeDs(world.payments, platform, ids, { cres }, world.facts);

describe('3DS step-up', () => {
  it('a not-authenticated ECI under risk-based steps up: AWAIT_3DS with the challenge, the acquirer not called, payment.await_3ds announced', async () => {
    const world = await coreWorld();
    const { ids, challenge } = await awaiting3ds(world);
    const stored = await storedPayment(world, ids);
    expect(stored.threeDs).toMatchObject({ acsUrl: challenge.acsUrl, creq: challenge.creq, transactionId: challenge.transactionId });
    expect(challenge).toMatchObject({
      amount: { currencyCode: 'AED', value: 10_000 },
      notificationUrl: 'https://pay.core.test/checkout/3ds-notification',
    });
    expect(world.acquirer.calls).toEqual([]);
    expect(await announced(world, ids)).toEqual(['payment.await_3ds']);
  });

  it('the payment data waits sealed to the service’s own key (only the vault opens it), holding only what 4.10 needs', async () => {
    const world = await coreWorld();
    const { ids, challenge } = await awaiting3ds(world);
    const pending = await world.stores.payments.getPendingThreeDs(ids.orderRef, ids.paymentRef, world.clock.now());
    expect(pending).toMatchObject({
      source: 'DIRECT_WALLET',
      transactionId: challenge.transactionId,
      acsTransactionId: challenge.acsTransactionId,
      environment: 'production',
    });
    expect(pending!.jwe.split('.')).toHaveLength(5);
    expect(pending!.jwe).not.toContain('4895370012003478');
    const opened = JSON.parse(new TextDecoder().decode(await decryptCheckoutJwe(pending!.jwe, world.keys)));
    expect(Object.keys(opened).sort()).toEqual(['dynamicData', 'eci', 'paymentAccountReference', 'token']);
    expect(JSON.stringify(await storedPayment(world, ids))).not.toContain('4895370012003478');
  });

  it('an authenticated ECI pays without a challenge; policy never skips it; policy always challenges even an “attempted” one', async () => {
    const authenticated = await coreWorld();
    const first = await newOrder(authenticated);
    expect((await payDirect(authenticated, first.ids, { eci: '05' })).state).toBe('AUTHORISED');
    const never = await coreWorld({ threeDsPolicy: 'never' });
    const second = await newOrder(never);
    expect((await payDirect(never, second.ids, NOT_AUTHENTICATED)).state).toBe('AUTHORISED');
    const always = await coreWorld({ threeDsPolicy: 'always' });
    const third = await newOrder(always);
    expect((await payDirect(always, third.ids, { eci: '06' })).state).toBe('AWAIT_3DS');
  });

  it('a 3DS server that cannot start the challenge gives the lease back (502): nothing was sent, the payment is STARTED again', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    world.threeDs.failNext = new AuthorizationUnavailableError('3DS unavailable (fake)');
    await expect(payDirect(world, ids, NOT_AUTHENTICATED)).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    expect((await storedPayment(world, ids)).state).toBe('STARTED');
    expect(world.acquirer.calls).toEqual([]);
  });
});

describe('completing 3DS (4.10)', () => {
  it('the server’s “authenticated” and a matching cres: the kept data is authorized once, with the authenticated ECI, and the sealed data is dropped', async () => {
    const metrics = recordedMetrics();
    const world = await coreWorld();
    const { ids, challenge } = await awaiting3ds(world);
    world.threeDs.answer(challenge, 'Y', '05');
    const paid = await complete(world, ids, cresFor(challenge, 'Y'));
    expect(paid).toMatchObject({ state: 'AUTHORISED', eci: '05', paymentMethod: { type: 'DIRECT_WALLET', tokenLastFour: '3478' } });
    expect(world.acquirer.calls).toEqual([expect.objectContaining({ method: 'authorize', idempotencyKey: ids.paymentRef, eci: '05' })]);
    expect(await world.stores.payments.getPendingThreeDs(ids.orderRef, ids.paymentRef, world.clock.now())).toBeUndefined();
    expect(await announced(world, ids)).toEqual(['payment.await_3ds', 'payment.authorised']);
    expect(metrics).toContainEqual({ name: 'ThreeDsResults', dimensions: { environment: 'production', result: 'authenticated' }, value: 1 });
  });

  it('without an ECI from the server, the brand’s authenticated ECI is used (Visa 05)', async () => {
    const world = await coreWorld();
    const { ids, challenge } = await awaiting3ds(world);
    world.threeDs.answer(challenge, 'Y');
    expect((await complete(world, ids, cresFor(challenge, 'Y'))).eci).toBe('05');
  });

  it('the server’s verdict decides, not the browser: a cres claiming Y over the server’s N fails the payment without the acquirer', async () => {
    const world = await coreWorld();
    const { ids, challenge } = await awaiting3ds(world);
    world.threeDs.answer(challenge, 'N');
    expect(await complete(world, ids, cresFor(challenge, 'Y'))).toMatchObject({ state: 'FAILED', failure: { code: 'THREE_DS_FAILED' } });
    expect(world.acquirer.calls).toEqual([]);
    expect(await announced(world, ids)).toEqual(['payment.await_3ds', 'payment.failed']);
  });

  it('the RReq decides, never the browser’s cres: a cres contradicting the server’s Y is logged and the payment is authorized', async () => {
    const world = await coreWorld();
    const { ids, challenge } = await awaiting3ds(world);
    world.threeDs.answer(challenge, 'Y', '05');
    expect(await complete(world, ids, cresFor(challenge, 'N'))).toMatchObject({ state: 'AUTHORISED', eci: '05' });
    expect(world.acquirer.sends(ids.paymentRef)).toBe(1);
    expect(world.logs.some((line) => String(line.message).includes('contradicts'))).toBe(true);
  });

  it('no verdict yet from the ACS: 409, and the payment keeps waiting', async () => {
    const world = await coreWorld();
    const { ids, challenge } = await awaiting3ds(world);
    await expect(complete(world, ids, cresFor(challenge, 'Y'))).rejects.toBeInstanceOf(PaymentStateConflictError);
    expect((await storedPayment(world, ids)).state).toBe('AWAIT_3DS');
  });

  it('a cres naming another challenge is refused (400) and changes nothing', async () => {
    const world = await coreWorld();
    const { ids, challenge } = await awaiting3ds(world);
    world.threeDs.answer(challenge, 'Y');
    await expect(complete(world, ids, cresFor({ ...challenge, acsTransactionId: 'another-acs-transaction' }, 'Y'))).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(complete(world, ids, 'not-a-cres')).rejects.toBeInstanceOf(InvalidRequestError);
    expect((await storedPayment(world, ids)).state).toBe('AWAIT_3DS');
  });

  it('once the sealed data expired, completion fails the payment THREE_DS_EXPIRED without the acquirer', async () => {
    const world = await coreWorld();
    const { ids, challenge } = await awaiting3ds(world);
    world.threeDs.answer(challenge, 'Y');
    world.clock.advance(3_600_000);
    expect(await complete(world, ids, cresFor(challenge, 'Y'))).toMatchObject({ state: 'FAILED', failure: { code: 'THREE_DS_EXPIRED' } });
    expect(world.acquirer.calls).toEqual([]);
  });

  it('the same cres again (its answer lost) gets the settled payment; nothing is authorized twice', async () => {
    const world = await coreWorld();
    const { ids, challenge } = await awaiting3ds(world);
    world.threeDs.answer(challenge, 'Y');
    const paid = await complete(world, ids, cresFor(challenge, 'Y'));
    world.clock.advance(1_000);
    expect(await complete(world, ids, cresFor(challenge, 'Y'))).toEqual(paid);
    expect(world.acquirer.sends(ids.paymentRef)).toBe(1);
  });

  it('a payment not waiting for 3DS cannot be completed (409)', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    const fake = { transactionId: 'f0000000-0000-4000-8000-000000000000', acsTransactionId: 'a0000000-0000-4000-8000-000000000000' };
    await expect(complete(world, ids, cresFor(fake, 'Y'))).rejects.toBeInstanceOf(PaymentStateConflictError);
  });

  it('an authorization after 3DS whose answer was lost: the same cres records what the acquirer did, never authorizes again', async () => {
    const world = await coreWorld();
    const { ids, challenge } = await awaiting3ds(world);
    world.threeDs.answer(challenge, 'Y');
    world.acquirer.next('lost-answer');
    await expect(complete(world, ids, cresFor(challenge, 'Y'))).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    world.clock.advance(1_000);
    expect((await complete(world, ids, cresFor(challenge, 'Y'))).state).toBe('AUTHORISED');
    expect(world.acquirer.sends(ids.paymentRef)).toBe(1);
  });

  it('a 3DS failure cannot hide an authorization an earlier attempt may have made: the acquirer’s outcome wins', async () => {
    const world = await coreWorld();
    const { ids, challenge } = await awaiting3ds(world);
    world.threeDs.answer(challenge, 'Y');
    world.acquirer.next('lost-answer');
    await expect(complete(world, ids, cresFor(challenge, 'Y'))).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    // The sealed data has expired by the time the same challenge comes back.
    world.clock.advance(3_600_000);
    expect((await complete(world, ids, cresFor(challenge, 'Y'))).state).toBe('AUTHORISED');
    expect(world.acquirer.sends(ids.paymentRef)).toBe(1);
  });
});
