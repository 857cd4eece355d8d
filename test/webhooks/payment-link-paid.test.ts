import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as getOrder } from '../../functions/get-order/handler.js';
import { documentClient } from '../../lib/composition/aws.js';
import { serviceConfig } from '../../lib/composition/config/service-config.js';
import { Logger } from '../../lib/core/ports/logger.js';
import { EventRepository } from '../../lib/adapters/dynamodb/event-repository.js';
import { sweep, RETRY_DELAYS_MS, type OutboxWorkerDeps } from '../../lib/core/outbox/worker.js';
import { HttpWebhookSender } from '../../lib/adapters/webhooks/sender.js';
import { newSigningSecret } from '../../lib/core/webhooks/signing.js';
import { checkoutResponse } from '../support/checkout.js';
import { invoke } from '../support/invoke.js';
import { createPaymentLink, linkBody, openPaymentLink, sessionOf } from '../support/payment-links.js';
import { pay } from '../support/payments.js';
import { seedMerchant } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';
import { webhookReceiver } from '../support/webhook-receiver.js';
import { outboxWorker } from '../support/outbox-worker.js';

const events = new EventRepository(documentClient, serviceConfig.ORDERS_TABLE);
const logger = new Logger({}, 'error', () => undefined);
const closers: (() => Promise<void>)[] = [];
let token: string;

beforeAll(async () => {
  token = await platformToken();
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

function worker(merchantRef: string, url: string, secrets: string[]): OutboxWorkerDeps {
  return outboxWorker({
    store: events,
    endpoints: { endpointFor: async (merchant) => (merchant === merchantRef ? { enabled: true, allowLoopback: true, url, secrets } : undefined) },
    sender: new HttpWebhookSender({ timeoutMs: 1_000 }),
    now: Date.now,
    settings: { retryDelaysMs: RETRY_DELAYS_MS, claimMs: 15_000 },
  });
}
const sweepAll = (deps: OutboxWorkerDeps) => sweep(deps, logger, { perShard: 100, concurrency: 4, stopAt: Number.POSITIVE_INFINITY });

describe('payment_link.paid (SPEC 4.14, 4.15)', () => {
  it('is announced once, with the payment and the link, by the write that authorises the link’s order', async () => {
    const secrets = [newSigningSecret()];
    const receiver = await webhookReceiver(secrets);
    closers.push(receiver.close);
    const m = await seedMerchant();
    const link = (await createPaymentLink(m.outletId, token, linkBody({ action: 'PURCHASE' }))).body;
    const session = await sessionOf(await openPaymentLink(link.linkRef));
    const order = await invoke(getOrder, {
      path: `/transactions/outlets/${m.outletId}/orders/${session.orderRef}`,
      pathParameters: { outletId: m.outletId, orderRef: session.orderRef },
      token: session.token,
    });
    const ids = { outletId: m.outletId, orderRef: session.orderRef, paymentRef: order.body.payments[0].paymentRef };
    const sdkResult = await checkoutResponse();
    expect((await pay(ids, session.token, sdkResult)).body.state).toBe('CAPTURED');
    expect((await pay(ids, session.token, sdkResult)).body.state).toBe('CAPTURED'); // a retry of the same payment announces nothing more
    const deps = worker(m.merchantRef, receiver.url, secrets);
    await sweepAll(deps);
    await sweepAll(deps);
    const mine = receiver.events().filter((e) => e.data.orderRef === session.orderRef);
    expect(mine.map((e) => e.type)).toEqual(['payment.authorised', 'payment.captured', 'payment_link.paid']);
    expect(mine[2]!.data).toMatchObject({
      linkRef: link.linkRef,
      orderRef: session.orderRef,
      outletId: m.outletId,
      merchantRef: m.merchantRef,
      paymentRef: ids.paymentRef,
      state: 'CAPTURED',
    });
    for (const r of receiver.received) expect(r.verifiedWith).toEqual([0]);
  });

  it('a declined link payment announces payment.failed only, never payment_link.paid', async () => {
    const secrets = [newSigningSecret()];
    const receiver = await webhookReceiver(secrets);
    closers.push(receiver.close);
    const m = await seedMerchant();
    const link = (await createPaymentLink(m.outletId, token, linkBody({ amount: { currencyCode: 'AED', value: 1051 } }))).body;
    const session = await sessionOf(await openPaymentLink(link.linkRef));
    const order = await invoke(getOrder, {
      path: `/transactions/outlets/${m.outletId}/orders/${session.orderRef}`,
      pathParameters: { outletId: m.outletId, orderRef: session.orderRef },
      token: session.token,
    });
    const ids = { outletId: m.outletId, orderRef: session.orderRef, paymentRef: order.body.payments[0].paymentRef };
    expect((await pay(ids, session.token, await checkoutResponse())).body.state).toBe('FAILED');
    await sweepAll(worker(m.merchantRef, receiver.url, secrets));
    expect(
      receiver
        .events()
        .filter((e) => e.data.orderRef === session.orderRef)
        .map((e) => e.type),
    ).toEqual(['payment.failed']);
  });
});
