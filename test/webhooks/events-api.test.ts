import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as listHandler } from '../../functions/list-events/handler.js';
import { handler as putHandler } from '../../functions/put-webhook-config/handler.js';
import { handler as redeliverHandler } from '../../functions/redeliver-event/handler.js';
import { handler as deliveryHandler } from '../../functions/webhook-delivery/handler.js';
import { invoke } from '../support/invoke.js';
import { aed, authorizedWorld, capture, refund, reverse } from '../support/lifecycle.js';
import { sessionTokenFor } from '../support/sessions.js';
import { tokenData } from '../support/direct-wallet.js';
import { payDirectly } from '../support/payments.js';
import { seedWorld } from '../support/seed.js';
import { platformToken, tenantToken } from '../support/tokens.js';
import { webhookReceiver } from '../support/webhook-receiver.js';

let token: string;
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  token = await platformToken();
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const context = (ms = 60_000) => {
  const end = Date.now() + ms;
  return { awsRequestId: 'test', functionName: 'webhookDelivery', getRemainingTimeInMillis: () => end - Date.now() } as unknown as Context;
};
const schedule = () => deliveryHandler({ source: 'aws.events', 'detail-type': 'Scheduled Event' }, context());
const list = (merchantRef: string, bearer = token, query?: Record<string, string>) =>
  invoke(listHandler, {
    method: 'GET',
    path: `/config/merchants/${merchantRef}/events`,
    pathParameters: { merchantRef },
    token: bearer,
    ...(query ? { query } : {}),
  });
const redeliver = (merchantRef: string, eventId: string, bearer = token) =>
  invoke(redeliverHandler, {
    method: 'POST',
    path: `/config/merchants/${merchantRef}/events/${eventId}/redeliver`,
    pathParameters: { merchantRef, eventId },
    token: bearer,
  });

/** A paid payment of a merchant whose webhook points at a fresh local receiver. */
async function merchantWithReceiver(answers: (number | 'hang')[] = []) {
  const receiver = await webhookReceiver([], answers);
  closers.push(receiver.close);
  const w = await authorizedWorld({ amount: 1000 });
  const put = await invoke(putHandler, {
    method: 'PUT',
    path: `/config/merchants/${w.merchantRef}/configs/webhooks`,
    pathParameters: { merchantRef: w.merchantRef },
    token,
    body: { url: receiver.url },
  });
  expect(put.status, put.raw).toBe(200);
  receiver.useSecrets([put.body.signingSecret]);
  return { w, receiver };
}

describe('the webhook delivery function', () => {
  it('the stream path delivers the item of a record that is due, at once; records not due are left alone', async () => {
    const { w, receiver } = await merchantWithReceiver();
    const record = (dueAt: number | undefined, sk = `PAYMENT#${w.paymentRef}`) => ({
      eventName: 'MODIFY',
      dynamodb: { NewImage: { pk: { S: `ORDER#${w.orderRef}` }, sk: { S: sk }, ...(dueAt === undefined ? {} : { dueAt: { N: String(dueAt) } }) } },
    });
    const later = await deliveryHandler({ Records: [record(Date.now() + 60_000), record(undefined)] } as unknown as DynamoDBStreamEvent, context());
    expect(later).toEqual({ batchItemFailures: [] });
    expect(receiver.received).toHaveLength(0);
    await deliveryHandler({ Records: [record(Date.now())] } as unknown as DynamoDBStreamEvent, context());
    expect(receiver.events().map((e) => e.type)).toEqual(['payment.authorised']);
    expect(receiver.received[0]!.verifiedWith).toEqual([0]);
  });

  it('the schedule path sweeps everything due; every state change of the lifecycle is announced in order', async () => {
    const { w, receiver } = await merchantWithReceiver();
    await capture(w, token, aed(600));
    await refund(w, token, aed(100));
    await refund(w, token);
    await schedule();
    await schedule();
    // Delivery order is not guaranteed (concurrent workers, retries): event ids sort by time.
    const types = receiver
      .events()
      .filter((e) => e.data.paymentRef === w.paymentRef)
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((e) => e.type);
    expect(types).toEqual(['payment.authorised', 'payment.partially_captured', 'payment.partially_refunded', 'payment.refunded']);
    const reversed = await authorizedWorld();
    await reverse(reversed, token);
    await schedule();
    const listed = await list(reversed.merchantRef);
    expect(listed.body.events.map((e: { type: string }) => e.type)).toEqual(['payment.authorised', 'payment.reversed']);
  });
});

describe('the event catalogue at authorization (SPEC 4.15)', () => {
  const typesOf = async (merchantRef: string) =>
    (await list(merchantRef)).body.events.map((e: { type: string; data: { state: string } }) => [e.type, e.data.state]);

  it('a decline raises payment.failed, a 3DS step-up payment.await_3ds, a PURCHASE authorised and captured (in that order)', async () => {
    const declined = await seedWorld({}, { directWallet: true, amount: 1051 });
    expect((await payDirectly(declined, token, tokenData())).body.state).toBe('FAILED');
    const stepUp = await seedWorld({}, { directWallet: true });
    expect((await payDirectly(stepUp, token, tokenData({ eci: '07' }))).body.state).toBe('AWAIT_3DS');
    const purchase = await authorizedWorld({ action: 'PURCHASE' });
    await schedule();
    expect(await typesOf(declined.merchantRef)).toEqual([['payment.failed', 'FAILED']]);
    expect(await typesOf(stepUp.merchantRef)).toEqual([['payment.await_3ds', 'AWAIT_3DS']]);
    expect(await typesOf(purchase.merchantRef)).toEqual([
      ['payment.authorised', 'CAPTURED'],
      ['payment.captured', 'CAPTURED'],
    ]);
  });
});

describe('4.15 events endpoints', () => {
  it('lists events oldest first with their attempts, pages with `after`, and redelivers one (202, same id, signed again)', async () => {
    const { w, receiver } = await merchantWithReceiver();
    await capture(w, token, aed(100));
    await schedule();
    const all = await list(w.merchantRef);
    expect(all.status, all.raw).toBe(200);
    expect(all.body.events.map((e: { type: string }) => e.type)).toEqual(['payment.authorised', 'payment.partially_captured']);
    expect(all.body.events[0]).toMatchObject({
      data: { paymentRef: w.paymentRef, merchantRef: w.merchantRef },
      delivery: { status: 'DELIVERED', attempts: [{ status: 200 }] },
    });
    const first = await list(w.merchantRef, token, { limit: '1' });
    expect(first.body.events).toHaveLength(1);
    const second = await list(w.merchantRef, token, { limit: '1', after: first.body.next });
    expect(second.body.events[0].id).toBe(all.body.events[1].id);
    const again = await redeliver(w.merchantRef, all.body.events[0].id);
    expect([again.status, again.body]).toEqual([202, { id: all.body.events[0].id, status: 'PENDING' }]);
    await schedule();
    const deliveries = receiver.received.filter((r) => r.headers['webhook-id'] === all.body.events[0].id);
    expect(deliveries).toHaveLength(2);
    expect(deliveries.every((d) => d.verifiedWith.length === 1)).toBe(true);
    expect((await list(w.merchantRef)).body.events[0].delivery.attempts).toHaveLength(2);
  });

  it('access: MANAGE_WEBHOOKS or platform; other tenants and unknown events 404; session tokens 403; bad ids 400', async () => {
    const { w } = await merchantWithReceiver();
    await schedule();
    const [event] = (await list(w.merchantRef)).body.events;
    expect((await list(w.merchantRef, await tenantToken({ tenantRef: w.tenantRef, permissions: ['MANAGE_WEBHOOKS'] }))).status).toBe(200);
    expect((await list(w.merchantRef, await tenantToken({ tenantRef: w.tenantRef, permissions: ['VIEW_ORDER'] }))).body.code).toBe('PERMISSION_DENIED');
    expect((await list(w.merchantRef, await tenantToken({ tenantRef: 'someone-else', permissions: ['MANAGE_WEBHOOKS'] }))).status).toBe(404);
    expect((await redeliver(w.merchantRef, event.id, await tenantToken({ tenantRef: 'someone-else', permissions: ['MANAGE_WEBHOOKS'] }))).status).toBe(404);
    expect((await list(w.merchantRef, await sessionTokenFor(w))).body.code).toBe('PERMISSION_DENIED');
    expect((await redeliver(w.merchantRef, `evt_${'0'.repeat(28)}`)).status).toBe(404);
    expect((await redeliver(w.merchantRef, 'not-an-event')).status).toBe(400);
    expect((await list(w.merchantRef, token, { limit: '0' })).status).toBe(400);
    expect((await list('no-such-merchant')).status).toBe(404);
  });
});
