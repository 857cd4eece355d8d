import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../../../lib/composition/aws.js';
import { logger } from '../../../lib/core/ports/logger.js';
import { sweep } from '../../../lib/core/outbox/worker.js';
import { EventRepository } from '../../../lib/adapters/dynamodb/event-repository.js';
import { HttpWebhookSender } from '../../../lib/adapters/webhooks/sender.js';
import { aed, capture, readOrderAs } from '../../support/lifecycle.js';
import { tokenData } from '../../support/direct-wallet.js';
import { outboxWorker } from '../../support/outbox-worker.js';
import { payDirectly } from '../../support/payments.js';
import { announced, processorWorld, type ProcessorWorld } from '../../support/processor-world.js';
import { platformToken } from '../../support/tokens.js';

/**
 * SPEC 4.16 "settled … by recovery (Checkout.com)": what a processor acknowledged as pending is
 * settled even when nobody touches the payment again — the write that records it pending queues
 * a recovery in the payment's outbox, and the outbox worker asks the processor (never resends)
 * on the webhooks' schedule until it is settled, announcing the settled state as usual.
 */
let token: string;
let world: ProcessorWorld;
let clock = Date.now();
const store = new EventRepository(documentClient, process.env.ORDERS_TABLE!);
const worker = outboxWorker({
  store,
  endpoints: { endpointFor: async () => undefined },
  sender: new HttpWebhookSender({ timeoutMs: 1_000 }),
  now: () => clock,
});
const sweepAll = () => sweep(worker, logger, { perShard: 100, concurrency: 4, stopAt: Number.POSITIVE_INFINITY });
const paymentOf = async (ids: { outletId: string; orderRef: string }) => (await readOrderAs(ids, token)).body.payments[0];

beforeAll(async () => {
  token = await platformToken();
  world = await processorWorld('checkout_com');
});
afterAll(() => world.close());

describe('Checkout.com: pending operations settled by the outbox worker’s recovery', () => {
  it('a capture accepted (202) but not yet processed stays PENDING, then the worker settles and announces it', async () => {
    const ids = await world.order(1000);
    expect((await payDirectly(ids, token, tokenData())).body.state).toBe('AUTHORISED');
    world.checkoutCom!.holdActions = true;
    try {
      const response = await capture(ids, token, aed(1000));
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ state: 'AUTHORISED', captures: [{ state: 'PENDING' }] });
      clock = Date.now();
      await sweepAll(); // asked: not processed yet, asked again later
      expect((await paymentOf(ids)).captures[0].state).toBe('PENDING');
    } finally {
      world.checkoutCom!.holdActions = false;
    }
    world.checkoutCom!.releaseActions();
    clock += 6_000; // the next attempt of the schedule (5 s)
    await sweepAll();
    expect(await paymentOf(ids)).toMatchObject({ state: 'CAPTURED', captures: [{ state: 'SUCCEEDED' }] });
    expect((await announced(ids.orderRef, ids.paymentRef)).filter((type) => type === 'payment.captured')).toHaveLength(1);
    const captureRef = (await paymentOf(ids)).captures[0].captureRef;
    expect(world.performed(captureRef)).toHaveLength(1); // asked, never sent again
  });

  it('a pending authorization (202) is settled by the worker once the processor decided, and the same request then gets it', async () => {
    const ids = await world.order(1077);
    const first = await payDirectly(ids, token, tokenData());
    expect([first.status, first.body.code]).toEqual([502, 'AUTHORIZATION_UNAVAILABLE']);
    world.checkoutCom!.settlePending(world.checkoutCom!.ledger.find((entry) => entry.reference === ids.paymentRef)!.id, true);
    clock = Date.now() + 60_000;
    await sweepAll();
    expect(await paymentOf(ids)).toMatchObject({ state: 'AUTHORISED' });
    expect(await announced(ids.orderRef, ids.paymentRef)).toContain('payment.authorised');
    expect((await payDirectly(ids, token, tokenData())).body).toMatchObject({ state: 'AUTHORISED' });
    expect(world.performed(ids.paymentRef)).toHaveLength(1);
  });
});
