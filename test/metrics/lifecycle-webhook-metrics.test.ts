import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentClient } from '../../lib/composition/aws.js';
import { serviceConfig } from '../../lib/composition/config/service-config.js';
import { Logger } from '../../lib/core/ports/logger.js';
import { metrics } from '../../lib/core/ports/metrics.js';
import { EventRepository } from '../../lib/adapters/dynamodb/event-repository.js';
import { outboxWorker } from '../support/outbox-worker.js';
import { sweep, type OutboxWorkerDeps } from '../../lib/core/outbox/worker.js';
import { HttpWebhookSender } from '../../lib/adapters/webhooks/sender.js';
import { newSigningSecret } from '../../lib/core/webhooks/signing.js';
import { aed, authorizedWorld, capture, refund, reverse } from '../support/lifecycle.js';
import { platformToken } from '../support/tokens.js';
import { webhookReceiver } from '../support/webhook-receiver.js';

/** Issue 11 item 3: captures, refunds, reversals and webhook deliveries by outcome. */
let token: string;
beforeAll(async () => {
  token = await platformToken();
});
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(closers.splice(0).map((close) => close()));
});

const counted = (spy: { mock: { calls: unknown[][] } }, name: string) => spy.mock.calls.filter(([n]) => n === name).map(([, dims]) => dims);

describe('lifecycle metrics', () => {
  it('a capture, a refund and a reversal each count once as succeeded', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const count = vi.spyOn(metrics, 'count');
    expect((await capture(w, token, aed(400))).status).toBeLessThan(300);
    expect((await refund(w, token, aed(100))).status).toBeLessThan(300);
    expect(counted(count, 'PaymentOperations')).toEqual([
      { operation: 'capture', outcome: 'succeeded' },
      { operation: 'refund', outcome: 'succeeded' },
    ]);

    const other = await authorizedWorld({ amount: 1000 });
    count.mockClear();
    expect((await reverse(other, token)).status).toBeLessThan(300);
    expect(counted(count, 'PaymentOperations')).toEqual([{ operation: 'reversal', outcome: 'succeeded' }]);
  });
});

describe('webhook delivery metrics', () => {
  const events = new EventRepository(documentClient, serviceConfig.ORDERS_TABLE);
  const logger = new Logger({}, 'error', () => undefined);

  async function deliveryTo(answers: number[], retryDelaysMs: readonly number[]) {
    const secrets = [newSigningSecret()];
    const receiver = await webhookReceiver(secrets, answers);
    closers.push(receiver.close);
    const w = await authorizedWorld({ amount: 1000 }); // one event: payment.authorised
    let clock = Date.now();
    const deps: OutboxWorkerDeps = outboxWorker({
      store: events,
      endpoints: {
        endpointFor: async (merchant) => (merchant === w.merchantRef ? { enabled: true, allowLoopback: true, url: receiver.url, secrets } : undefined),
      },
      sender: new HttpWebhookSender({ timeoutMs: 1_000 }),
      now: () => clock,
      settings: { retryDelaysMs, claimMs: 15_000 },
    });
    return {
      sweep: () => sweep(deps, logger, { perShard: 100, concurrency: 4, stopAt: Number.POSITIVE_INFINITY }),
      advance: (ms: number) => (clock += ms),
    };
  }

  it('a refused attempt counts as retrying, the next success as delivered', async () => {
    const delivery = await deliveryTo([500], [1_000]);
    const count = vi.spyOn(metrics, 'count');
    await delivery.sweep();
    expect(counted(count, 'WebhookDeliveries')).toEqual([{ outcome: 'retrying' }]);
    delivery.advance(1_500);
    await delivery.sweep();
    expect(counted(count, 'WebhookDeliveries')).toEqual([{ outcome: 'retrying' }, { outcome: 'delivered' }]);
  });

  it('the last refused attempt counts as failed', async () => {
    const delivery = await deliveryTo([500], []);
    const count = vi.spyOn(metrics, 'count');
    await delivery.sweep();
    expect(counted(count, 'WebhookDeliveries')).toEqual([{ outcome: 'failed' }]);
  });
});
