import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AdyenProcessor } from '../../../lib/adapters/processors/adyen/adapter.js';
import { adyenAdapterConfig } from '../../../lib/adapters/processors/adyen/config.js';
import { effectOf, notificationKey } from '../../../lib/adapters/processors/adyen/notifications/effects.js';
import { verifyNotification } from '../../../lib/adapters/processors/adyen/notifications/parse.js';
import { startAdyenFake, type AdyenFake } from '../../fakes/adyen/fake.js';
import { authorization, modification, signal, startNotificationSink } from '../support.js';

let fake: AdyenFake;
let adyen: AdyenProcessor;
let sink: Awaited<ReturnType<typeof startNotificationSink>>;

beforeAll(async () => {
  sink = await startNotificationSink();
  fake = await startAdyenFake({ notificationUrl: sink.url });
  adyen = new AdyenProcessor(
    adyenAdapterConfig.parse({
      baseUrl: fake.url,
      apiKey: fake.apiKey,
      merchantAccount: fake.merchantAccount,
      returnUrl: 'https://pay.test.example/checkout',
      timeoutMs: 2000,
    }),
  );
});
afterEach(() => {
  fake.clearFaults();
  fake.notifier.mode = 'immediate';
  expect(fake.rejections).toEqual([]);
});
afterAll(async () => {
  await fake.close();
  await sink.close();
});

/** The verified effects of every notification the service received for this operation reference. */
async function effectsFor(reference: string) {
  await fake.notifier.settled();
  return sink.bodies
    .flatMap((body) => verifyNotification(body, [fake.hmacKeyHex], fake.merchantAccount).items)
    .filter((item) => item.merchantReference === reference)
    .map((item) => ({ effect: effectOf(item), key: notificationKey(item) }));
}

async function authorized(value = 1000) {
  const request = authorization({ amount: { currencyCode: 'AED', value } });
  const outcome = await adyen.authorize(request, signal());
  if (outcome.kind !== 'approved') throw new Error('expected an approval');
  return { request, pspReference: outcome.processorReference };
}

describe('Adyen modifications are asynchronous', () => {
  it('answers a capture with pending (201 received) and settles it by a signed CAPTURE notification', async () => {
    const { pspReference } = await authorized();
    const capture = modification('CAPTURE', pspReference, 400);
    const outcome = await adyen.modify(capture, signal());
    expect(outcome).toMatchObject({ kind: 'pending' });
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe(`/payments/${pspReference}/captures`);
    expect(sent.headers['idempotency-key']).toBe(`capture:${capture.idempotencyKey}`);
    expect(sent.body).toEqual({ merchantAccount: fake.merchantAccount, reference: capture.idempotencyKey, amount: { currency: 'AED', value: 400 } });
    expect(await effectsFor(capture.idempotencyKey)).toEqual([
      {
        effect: {
          kind: 'modification',
          operation: 'CAPTURE',
          reference: capture.idempotencyKey,
          processorReference: (outcome as { processorReference: string }).processorReference,
          paymentProcessorReference: pspReference,
          succeeded: true,
        },
        key: expect.any(String),
      },
    ]);
  });

  it('reverses with /cancels (no amount) and refunds partially with /refunds', async () => {
    const first = await authorized();
    const reversal = modification('REVERSAL', first.pspReference, 1000);
    await adyen.modify(reversal, signal());
    expect(fake.requests.at(-1)!.path).toBe(`/payments/${first.pspReference}/cancels`);
    expect(fake.requests.at(-1)!.body).toEqual({ merchantAccount: fake.merchantAccount, reference: reversal.idempotencyKey });
    expect((await effectsFor(reversal.idempotencyKey)).map(({ effect }) => effect)).toMatchObject([{ operation: 'REVERSAL', succeeded: true }]);

    const second = await authorized();
    await adyen.modify(modification('CAPTURE', second.pspReference, 1000), signal());
    const refund = modification('REFUND', second.pspReference, 250);
    await adyen.modify(refund, signal());
    expect((await effectsFor(refund.idempotencyKey)).map(({ effect }) => effect)).toMatchObject([{ operation: 'REFUND', succeeded: true }]);
  });

  it('lets concurrent captures beyond the authorization through the API, and fails the excess by notification', async () => {
    const { pspReference } = await authorized(1000);
    const captures = [modification('CAPTURE', pspReference, 600), modification('CAPTURE', pspReference, 600)];
    const outcomes = await Promise.all(captures.map((capture) => adyen.modify(capture, signal())));
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['pending', 'pending']);
    const results = (await Promise.all(captures.map((capture) => effectsFor(capture.idempotencyKey)))).map(
      ([entry]) => (entry!.effect as { succeeded: boolean }).succeeded,
    );
    expect(results.sort()).toEqual([false, true]);
  });

  it('recovers a capture whose answer was lost by replaying it: same modification, performed once', async () => {
    const { pspReference } = await authorized();
    const capture = modification('CAPTURE', pspReference, 300);
    fake.setFault('lose-answer');
    const quick = new AdyenProcessor(
      adyenAdapterConfig.parse({
        baseUrl: fake.url,
        apiKey: fake.apiKey,
        merchantAccount: fake.merchantAccount,
        returnUrl: 'https://pay.test.example/checkout',
        timeoutMs: 300,
      }),
    );
    await expect(quick.modify(capture, signal())).rejects.toMatchObject({ reason: 'timeout' });
    const recovered = await adyen.recover({ operation: 'MODIFY', request: capture }, signal());
    const entries = fake.ledger.filter((entry) => entry.reference === capture.idempotencyKey);
    expect(entries).toHaveLength(1);
    expect(recovered).toEqual({ kind: 'known', outcome: { kind: 'pending', processorReference: entries[0]!.pspReference } });
  });
});

describe('Adyen notification delivery', () => {
  it('can deliver a notification twice: both verify, and both name the same notification key', async () => {
    const { pspReference } = await authorized();
    fake.notifier.mode = 'twice';
    const capture = modification('CAPTURE', pspReference, 1000);
    await adyen.modify(capture, signal());
    const effects = await effectsFor(capture.idempotencyKey);
    expect(effects).toHaveLength(2);
    expect(effects[0]).toEqual(effects[1]);
  });

  it('can deliver notifications out of order (a refund’s before its capture’s)', async () => {
    const { pspReference } = await authorized();
    fake.notifier.mode = 'hold';
    const capture = modification('CAPTURE', pspReference, 1000);
    const refund = modification('REFUND', pspReference, 1000);
    await adyen.modify(capture, signal());
    await adyen.modify(refund, signal());
    const before = sink.bodies.length;
    fake.notifier.release('reverse');
    await fake.notifier.settled();
    const order = sink.bodies.slice(before).map((body) => effectOf(verifyNotification(body, [fake.hmacKeyHex], fake.merchantAccount).items[0]!));
    expect(order.map((effect) => (effect as { operation: string }).operation)).toEqual(['REFUND', 'CAPTURE']);
  });

  it('sends an AUTHORISATION notification naming the paymentRef, also for a pending authorization', async () => {
    const request = authorization({ amount: { currencyCode: 'AED', value: 1077 } });
    const outcome = await adyen.authorize(request, signal());
    expect(outcome.kind).toBe('pending');
    expect((await effectsFor(request.idempotencyKey)).map(({ effect }) => effect)).toEqual([
      {
        kind: 'authorization',
        reference: request.idempotencyKey,
        processorReference: (outcome as { processorReference: string }).processorReference,
        approved: true,
      },
    ]);
  });
});
