import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { operationRef } from '../../../lib/core/operations/operation-ref.js';
import { aed, capture, readOrderAs, refund } from '../../support/lifecycle.js';
import { tokenData } from '../../support/direct-wallet.js';
import { payDirectly } from '../../support/payments.js';
import { announced, postNotification, processorWorld, storedPayment, type ProcessorWorld } from '../../support/processor-world.js';
import { platformToken } from '../../support/tokens.js';
import { identity } from '../../support/tokens.js';
import type { NotificationItemFields } from '../../fakes/adyen/notifier.js';
import { AdyenNotifier } from '../../fakes/adyen/notifier.js';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../../lib/composition/aws.js';

/**
 * POST /processors/adyen/notifications (SPEC 4.16): HMAC-verified per item with the merchant's
 * key (found by its merchant account), 401 and nothing changes if any item fails, each
 * notification applied once, items ahead of their operation wait for it, answered [accepted].
 */
let token: string;
let world: ProcessorWorld;
const adyen = () => world.adyen!;

beforeAll(async () => {
  token = await platformToken();
  world = await processorWorld('adyen');
});
afterEach(() => {
  adyen().notifier.mode = 'immediate';
  adyen().clearFaults();
  expect(adyen().rejections).toEqual([]);
});
afterAll(() => world.close());

const authorized = async (value = 1000) => {
  const ids = await world.order(value);
  expect((await payDirectly(ids, token, tokenData())).body.state).toBe('AUTHORISED');
  await world.settled();
  return ids;
};
const paymentOf = async (ids: { outletId: string; orderRef: string }) => (await readOrderAs(ids, token)).body.payments[0];
const pspOf = (paymentRef: string) => adyen().ledger.find((entry) => entry.reference === paymentRef)!.pspReference;
/** A notification the merchant's key signs (what Adyen would send), or another key (a forger). */
const signed = (item: NotificationItemFields, key = adyen().hmacKeyHex) => adyen().notifier.body(item, key);
const reportsOf = async (merchantRef: string) => {
  const { Items = [] } = await documentClient.send(new ScanCommand({ TableName: process.env.ORDERS_TABLE! }));
  return Items.filter((item) => String(item.pk).startsWith(`PROCESSOR_REF#${merchantRef}#`) && String(item.sk).startsWith('REPORT#'));
};

describe('Adyen notifications', () => {
  it('answers [accepted] and settles a pending capture', async () => {
    const ids = await authorized();
    adyen().notifier.mode = 'hold';
    const response = await capture(ids, token, aed(300));
    expect(response.body.captures[0]).toMatchObject({ state: 'PENDING' }); // Adyen answered "received"
    expect(response.body.state).toBe('AUTHORISED');
    adyen().notifier.release();
    await world.settled();
    expect(world.notifications.at(-1)).toEqual({ status: 200, body: '[accepted]' });
    expect(await paymentOf(ids)).toMatchObject({ state: 'PARTIALLY_CAPTURED', captures: [{ state: 'SUCCEEDED' }] });
  });

  it('a notification delivered twice is applied once: one capture, one event', async () => {
    const ids = await authorized();
    adyen().notifier.mode = 'twice';
    await capture(ids, token, aed(1000));
    await world.settled();
    const deliveries = adyen().notifier.deliveries.filter((d) => d.item.eventCode === 'CAPTURE' && d.item.originalReference === pspOf(ids.paymentRef));
    expect(deliveries.map((d) => [d.status, d.answer])).toEqual([
      [200, '[accepted]'],
      [200, '[accepted]'],
    ]);
    expect(await paymentOf(ids)).toMatchObject({ state: 'CAPTURED', capturedAmount: { value: 1000 } });
    expect((await announced(ids.orderRef, ids.paymentRef)).filter((type) => type === 'payment.captured')).toHaveLength(1);
  });

  it('notifications out of order settle each operation they name', async () => {
    const ids = await authorized(1000);
    adyen().notifier.mode = 'hold';
    await capture(ids, token, aed(300));
    await capture(ids, token, aed(200));
    expect(adyen().notifier.heldCount).toBe(2);
    adyen().notifier.release('reverse');
    await world.settled();
    expect(await paymentOf(ids)).toMatchObject({ state: 'PARTIALLY_CAPTURED', capturedAmount: { value: 500 } });
  });

  it('a notification ahead of its operation waits for it, and settles it once the operation exists', async () => {
    const ids = await authorized(1000);
    const key = `early-${ids.paymentRef}`;
    const principal = { kind: 'platform', subject: 'local-platform', permissions: new Set<string>() } as const;
    // The reference the capture under this Idempotency-Key will have (operation-ref.ts).
    const ref = operationRef('CAPTURE', ids.paymentRef, principal, key);
    const early = await postNotification(
      signed({
        eventCode: 'CAPTURE',
        pspReference: 'EARLY00000000001',
        originalReference: pspOf(ids.paymentRef),
        merchantReference: ref,
        amount: { currency: 'AED', value: 400 },
        success: true,
      }),
    );
    expect([early.status, early.raw]).toEqual([200, '[accepted]']);
    expect((await reportsOf(world.merchantRef)).filter((r) => r.reference === ref && !r.appliedAt)).toHaveLength(1); // waiting
    adyen().notifier.mode = 'hold'; // Adyen's own notification of it never arrives in this test
    const response = await capture(ids, token, aed(400), { headers: { 'idempotency-key': key } });
    expect(response.status).toBe(201);
    const settled = await paymentOf(ids);
    expect(settled.captures.find((c: { captureRef: string }) => c.captureRef === ref)).toMatchObject({ state: 'SUCCEEDED' });
    adyen().notifier.release();
    await world.settled();
    expect((await paymentOf(ids)).capturedAmount).toEqual({ currencyCode: 'AED', value: 400 });
  });

  it('a forged notification is refused with 401 and changes nothing', async () => {
    const ids = await authorized(1000);
    adyen().notifier.mode = 'hold';
    await capture(ids, token, aed(1000));
    const before = await storedPayment(ids.orderRef, ids.paymentRef);
    const ref = (await paymentOf(ids)).captures[0].captureRef;
    const reportsBefore = (await reportsOf(world.merchantRef)).length;
    const item = {
      eventCode: 'CAPTURE',
      pspReference: 'FORGED0000000001',
      originalReference: pspOf(ids.paymentRef),
      merchantReference: ref,
      amount: { currency: 'AED', value: 1000 },
      success: true,
    };
    const forged = await postNotification(signed(item, 'AB'.repeat(32)));
    expect([forged.status, forged.raw]).toEqual([401, 'unauthorized']);
    // One genuine item and one forged one in the same delivery: neither is applied.
    const genuine = signed(item) as { notificationItems: unknown[] };
    const mixed = {
      ...genuine,
      notificationItems: [
        ...genuine.notificationItems,
        ...(signed({ ...item, pspReference: 'FORGED0000000002' }, 'CD'.repeat(32)) as typeof genuine).notificationItems,
      ],
    };
    expect((await postNotification(mixed)).status).toBe(401);
    // An account no merchant has: nobody's key can verify it.
    const stranger = new AdyenNotifier({ hmacKeyHex: adyen().hmacKeyHex, merchantAccount: 'NobodysECOM' }).body(item);
    expect((await postNotification(stranger)).status).toBe(401);
    expect(await storedPayment(ids.orderRef, ids.paymentRef)).toEqual(before);
    expect((await reportsOf(world.merchantRef)).length).toBe(reportsBefore);
    adyen().notifier.release();
    await world.settled();
  });

  it('refuses a body that is not a notification (400) and one that is not JSON (415)', async () => {
    expect((await postNotification({ hello: 'world' })).status).toBe(400);
    expect((await postNotification('live=true', 'application/x-www-form-urlencoded')).status).toBe(400);
  });

  it('an authorization Adyen answered Received is settled by its AUTHORISATION notification', async () => {
    const ids = await world.order(1077);
    adyen().notifier.mode = 'hold';
    const first = await payDirectly(ids, token, tokenData());
    expect([first.status, first.body.code]).toEqual([502, 'AUTHORIZATION_UNAVAILABLE']);
    expect(Number(first.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect((await paymentOf(ids)).state).toBe('STARTED'); // neither AUTHORISED nor FAILED
    adyen().notifier.release();
    await world.settled();
    expect(await paymentOf(ids)).toMatchObject({ state: 'AUTHORISED' });
    // The same request coming back gets the outcome, and nothing is sent again.
    expect((await payDirectly(ids, token, tokenData())).body).toMatchObject({ state: 'AUTHORISED' });
    expect(world.performed(ids.paymentRef)).toHaveLength(1);
    expect((await announced(ids.orderRef, ids.paymentRef)).filter((type) => type === 'payment.authorised')).toHaveLength(1);
  });

  it('an authorization Received then refused by notification ends FAILED', async () => {
    const ids = await world.order(1078);
    adyen().notifier.mode = 'hold'; // the notification comes after the answer
    expect((await payDirectly(ids, token, tokenData())).status).toBe(502);
    adyen().notifier.release();
    await world.settled();
    expect(await paymentOf(ids)).toMatchObject({ state: 'FAILED', failure: { code: 'PROCESSOR_REFUSED', processorCode: 'adyen:AUTHORISATION:false' } });
  });

  it('a refusal notification that overtakes the Received answer decides the payment: FAILED, answered as such', async () => {
    const ids = await world.order(1078);
    adyen().notifier.mode = 'ahead';
    const response = await payDirectly(ids, token, tokenData());
    await world.settled();
    expect(await paymentOf(ids)).toMatchObject({ state: 'FAILED', failure: { code: 'PROCESSOR_REFUSED', processorCode: 'adyen:AUTHORISATION:false' } });
    expect([response.status, response.body.state]).toEqual([200, 'FAILED']); // as any refusal is answered
  });

  it('an approval notification that overtakes the Received answer decides the payment: AUTHORISED, announced once', async () => {
    const ids = await world.order(1077);
    adyen().notifier.mode = 'ahead';
    const response = await payDirectly(ids, token, tokenData());
    await world.settled();
    expect([response.status, response.body.state]).toEqual([200, 'AUTHORISED']);
    expect(world.performed(ids.paymentRef)).toHaveLength(1);
    expect((await announced(ids.orderRef, ids.paymentRef)).filter((type) => type === 'payment.authorised')).toHaveLength(1);
  });

  it('CAPTURE_FAILED undoes a capture Adyen had accepted: the amount capturable again, announced', async () => {
    const ids = await authorized(1000);
    await capture(ids, token, aed(1000));
    await world.settled();
    const payment = await paymentOf(ids);
    expect(payment.state).toBe('CAPTURED');
    const ref = payment.captures[0].captureRef;
    const failed = await postNotification(
      signed({
        eventCode: 'CAPTURE_FAILED',
        pspReference: 'CAPFAIL000000001',
        originalReference: pspOf(ids.paymentRef),
        merchantReference: ref,
        amount: { currency: 'AED', value: 1000 },
        success: true,
      }),
    );
    expect(failed.status).toBe(200);
    expect(await paymentOf(ids)).toMatchObject({
      state: 'AUTHORISED',
      capturedAmount: { value: 0 },
      captures: [{ state: 'FAILED', failure: { code: 'PROCESSOR_REFUSED', processorCode: 'adyen:CAPTURE_FAILED' } }],
    });
    expect(await announced(ids.orderRef, ids.paymentRef)).toContain('payment.authorised');
    expect((await capture(ids, token, aed(1000))).status).toBe(201); // capturable again
  });

  it('TECHNICAL_CANCEL voids an authorization with nothing captured: REVERSED, announced', async () => {
    const ids = await authorized(1000);
    const cancel = await postNotification(
      signed({
        eventCode: 'TECHNICAL_CANCEL',
        pspReference: 'TECHCANCEL000001',
        originalReference: pspOf(ids.paymentRef),
        merchantReference: ids.paymentRef,
        amount: { currency: 'AED', value: 1000 },
        success: true,
      }),
    );
    expect(cancel.status).toBe(200);
    expect(await paymentOf(ids)).toMatchObject({ state: 'REVERSED', reversal: { reversalRef: 'technical-cancel-TECHCANCEL000001', state: 'SUCCEEDED' } });
    expect(await announced(ids.orderRef, ids.paymentRef)).toContain('payment.reversed');
  });

  it('a refund Adyen refuses by notification is FAILED, the amount refundable again', async () => {
    const ids = await authorized(1000);
    await capture(ids, token, aed(1000));
    await world.settled();
    adyen().notifier.mode = 'hold';
    const response = await refund(ids, token, aed(200));
    const ref = response.body.refunds[0].refundRef;
    adyen().notifier.release(); // Adyen's own (successful) notification, held back…
    await world.settled();
    expect((await paymentOf(ids)).refunds[0]).toMatchObject({ refundRef: ref, state: 'SUCCEEDED' });
    const refusedLater = await postNotification(
      signed({
        eventCode: 'REFUND_FAILED',
        pspReference: 'REFFAIL000000001',
        originalReference: pspOf(ids.paymentRef),
        merchantReference: ref,
        amount: { currency: 'AED', value: 200 },
        success: true,
      }),
    );
    expect(refusedLater.status).toBe(200);
    expect(await paymentOf(ids)).toMatchObject({ state: 'CAPTURED', refundedAmount: { value: 0 }, refunds: [{ state: 'FAILED' }] });
  });

  it('keeps only the signed fields of a notification: no signature, no Adyen text', async () => {
    const reports = await reportsOf(world.merchantRef);
    expect(reports.length).toBeGreaterThan(0);
    for (const report of reports) {
      expect(JSON.stringify(report)).not.toMatch(/hmacSignature|paymentMethod/);
      expect(JSON.stringify(report)).not.toContain(identity.issuer);
    }
  });
});
