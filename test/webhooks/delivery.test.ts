import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentClient } from '../../lib/composition/aws.js';
import { serviceConfig } from '../../lib/composition/config/service-config.js';
import { DependencyUnavailableError } from '../../lib/core/errors.js';
import { Logger } from '../../lib/core/ports/logger.js';
import { EventRepository, eventKey } from '../../lib/adapters/dynamodb/event-repository.js';
import { DELIVERY_RESERVE_MS, RETRY_DELAYS_MS, sweep, type OutboxWorkerDeps } from '../../lib/core/outbox/worker.js';
import type { WebhookEndpoint, WebhookEndpoints } from '../../lib/core/webhooks/webhook-deliverer.js';
import { runWithDeadline } from '../../lib/core/deadline.js';
import { HttpWebhookSender } from '../../lib/adapters/webhooks/sender.js';
import { newSigningSecret } from '../../lib/core/webhooks/signing.js';
import { tokenData } from '../support/direct-wallet.js';
import { aed, authorizedWorld, capture } from '../support/lifecycle.js';
import { platformToken } from '../support/tokens.js';
import { webhookReceiver } from '../support/webhook-receiver.js';
import { storedItem } from '../support/stored-item.js';
import { outboxWorker } from '../support/outbox-worker.js';

const events = new EventRepository(documentClient, serviceConfig.ORDERS_TABLE);
const lines: string[] = [];
const logger = new Logger({}, 'debug', (line) => lines.push(line));
let token: string;
let clock = Date.now();
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  token = await platformToken();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** The delivery worker with a clock the test moves, pointed at one merchant's endpoint. */
function worker(
  merchantRef: string,
  endpoint: Partial<WebhookEndpoint> & { url: string; secrets: string[] },
  retryDelaysMs: readonly number[] = RETRY_DELAYS_MS,
  endpoints?: WebhookEndpoints,
): OutboxWorkerDeps {
  clock = Date.now(); // after the writes that made the events
  return outboxWorker({
    store: events,
    endpoints: endpoints ?? { endpointFor: async (merchant) => (merchant === merchantRef ? { enabled: true, allowLoopback: true, ...endpoint } : undefined) },
    sender: new HttpWebhookSender({ timeoutMs: 1_000 }),
    now: () => clock,
    settings: { retryDelaysMs, claimMs: 15_000 },
  });
}
const sweepAll = (deps: OutboxWorkerDeps) => sweep(deps, logger, { perShard: 100, concurrency: 4, stopAt: Number.POSITIVE_INFINITY });

async function receiverFor(answers: (number | 'hang')[] = [], secrets = [newSigningSecret()]) {
  const receiver = await webhookReceiver(secrets, answers);
  closers.push(receiver.close);
  return { receiver, secrets };
}

describe('webhook delivery (SPEC §4.15)', () => {
  it('delivers the events of a payment, signed (Standard Webhooks verifier), with the resource and ids', async () => {
    const { receiver, secrets } = await receiverFor();
    const w = await authorizedWorld({ amount: 1000 });
    await capture(w, token, aed(300));
    await sweepAll(worker(w.merchantRef, { url: receiver.url, secrets }));
    const mine = receiver.events().filter((e) => e.data.paymentRef === w.paymentRef);
    expect(mine.map((e) => e.type)).toEqual(['payment.authorised', 'payment.partially_captured']);
    for (const r of receiver.received) expect(r.verifiedWith).toEqual([0]);
    expect(mine[1]!.data).toMatchObject({
      orderRef: w.orderRef,
      outletId: w.outletId,
      merchantRef: w.merchantRef,
      state: 'PARTIALLY_CAPTURED',
      capturedAmount: { value: 300 },
    });
    const raw = receiver.received.map((r) => r.body).join('\n');
    expect(raw).not.toContain(tokenData().token.paymentToken); // nothing sensitive in a body
    expect(raw).not.toContain(tokenData().dynamicData.dynamicDataValue);
    expect(receiver.received[0]!.headers['webhook-id']).toBe(mine[0]!.id);
    // Delivered once: a second sweep has nothing to do.
    await sweepAll(worker(w.merchantRef, { url: receiver.url, secrets }));
    expect(receiver.events().filter((e) => e.data.paymentRef === w.paymentRef)).toHaveLength(2);
  });

  it('retries a failing endpoint with growing delays (same webhook-id, frozen clock), then delivers', async () => {
    const { receiver, secrets } = await receiverFor([500, 503, 'hang']);
    const w = await authorizedWorld();
    const deps = worker(w.merchantRef, { url: receiver.url, secrets });
    const start = clock;
    await sweepAll(deps); // attempt 1: 500
    await sweepAll(deps); // not due yet: nothing
    expect(receiver.received).toHaveLength(1);
    clock = start + 5_000;
    await sweepAll(deps); // attempt 2: 503
    clock += 29_000;
    await sweepAll(deps); // 1 s early for the second delay
    expect(receiver.received).toHaveLength(2);
    clock += 1_000;
    await sweepAll(deps); // attempt 3: no answer within the sender's timeout
    clock += 120_000;
    await sweepAll(deps); // attempt 4: 200
    expect(receiver.received).toHaveLength(4);
    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    const stamps = receiver.received.map((r) => Number(r.headers['webhook-timestamp']));
    expect(stamps.slice(1).map((t, i) => t - stamps[i]!)).toEqual([5, 30, 120]);
    const stored = await events.list(w.merchantRef, undefined, 10);
    expect(stored[0]).toMatchObject({ status: 'DELIVERED', attempts: [{ status: 500 }, { status: 503 }, { error: 'timeout' }, { status: 200 }] });
    expect(stored[0]!.dueAt).toBeUndefined();
  });

  it('gives up after the last delay of the schedule (FAILED), which spans more than 24 h', async () => {
    expect(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0)).toBeGreaterThan(24 * 3600 * 1000);
    const { receiver, secrets } = await receiverFor([500, 500, 500, 500]);
    const w = await authorizedWorld();
    const deps = worker(w.merchantRef, { url: receiver.url, secrets }, [1_000, 2_000]);
    for (const step of [0, 1_000, 2_000, 60_000]) {
      clock += step;
      await sweepAll(deps);
    }
    expect(receiver.received).toHaveLength(3);
    expect((await events.list(w.merchantRef, undefined, 10))[0]).toMatchObject({ status: 'FAILED' });
  });

  it('signs with both secrets during a rotation: either one verifies', async () => {
    const current = newSigningSecret();
    const previous = newSigningSecret();
    const { receiver } = await receiverFor([], [current, previous]);
    const w = await authorizedWorld();
    await sweepAll(worker(w.merchantRef, { url: receiver.url, secrets: [current, previous] }));
    expect(String(receiver.received[0]!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(receiver.received[0]!.verifiedWith).toEqual([0, 1]);
  });

  it('a crash after the state write (outbox not yet drained, or drained halfway) still delivers, exactly once', async () => {
    const { receiver, secrets } = await receiverFor();
    const w = await authorizedWorld();
    const deps = worker(w.merchantRef, { url: receiver.url, secrets });
    vi.spyOn(events, 'clearOutbox').mockRejectedValueOnce(new Error('the function died here'));
    await sweepAll(deps); // the event item was written, the outbox not cleared, nothing sent
    expect(receiver.received).toHaveLength(0);
    await sweepAll(deps);
    await sweepAll(deps);
    expect(
      receiver
        .events()
        .filter((e) => e.data.paymentRef === w.paymentRef)
        .map((e) => e.type),
    ).toEqual(['payment.authorised']);
  });

  it('secrets that cannot be opened (KMS down) count as failed attempts on the schedule, never a silent loop', async () => {
    const { receiver, secrets } = await receiverFor();
    const w = await authorizedWorld();
    const deps = worker(w.merchantRef, { url: receiver.url, secrets }, [1_000], { endpointFor: async () => Promise.reject(new DependencyUnavailableError()) });
    await sweepAll(deps);
    clock += 1_000;
    await sweepAll(deps);
    clock += 60_000;
    await sweepAll(deps);
    const [stored] = await events.list(w.merchantRef, undefined, 10);
    expect(stored).toMatchObject({ status: 'FAILED', attempts: [{ error: 'secrets-unavailable' }, { error: 'secrets-unavailable' }] });
    expect(receiver.received).toHaveLength(0);
  });

  it('starts no attempt without the time for a whole send before the invocation’s deadline; the event stays due', async () => {
    const { receiver, secrets } = await receiverFor();
    const w = await authorizedWorld();
    const deps = worker(w.merchantRef, { url: receiver.url, secrets });
    const underDeadline = (ms: number) => runWithDeadline({ signal: new AbortController().signal, at: Date.now() + ms }, () => sweepAll(deps));
    await underDeadline(DELIVERY_RESERVE_MS - 1_000);
    expect(receiver.received).toHaveLength(0);
    await underDeadline(DELIVERY_RESERVE_MS + 5_000);
    expect(receiver.events().map((e) => e.type)).toEqual(['payment.authorised']);
  });

  it('a secret that cannot sign is a failed attempt on the schedule, not a claim retried forever', async () => {
    const { receiver } = await receiverFor();
    const w = await authorizedWorld();
    await sweepAll(worker(w.merchantRef, { url: receiver.url, secrets: ['not-a-whsec-secret'] }, [1_000]));
    const [stored] = await events.list(w.merchantRef, undefined, 10);
    expect(stored).toMatchObject({ status: 'PENDING', failures: 1, attempts: [{ error: 'secrets-unavailable' }] });
    expect(receiver.received).toHaveLength(0);
  });

  it('records NOT_CONFIGURED when the merchant has no webhook, and never sends', async () => {
    const w = await authorizedWorld();
    const deps = worker('nobody', { url: 'https://unused.example', secrets: [] });
    await sweepAll(deps);
    const [stored] = await events.list(w.merchantRef, undefined, 10);
    expect(stored).toMatchObject({ status: 'NOT_CONFIGURED', type: 'payment.authorised' });
    expect(await storedItem(eventKey(w.merchantRef, stored!.id))).not.toHaveProperty('dueAt');
  });

  it('logs no secret, signature or card data', async () => {
    const { receiver, secrets } = await receiverFor();
    const w = await authorizedWorld();
    lines.length = 0;
    await sweepAll(worker(w.merchantRef, { url: receiver.url, secrets }));
    const text = lines.join('\n');
    expect(text).toContain('webhook attempt');
    expect(text).not.toContain(secrets[0]!.slice(6));
    expect(text).not.toContain(receiver.received[0]!.headers['webhook-signature']!.slice(3));
    expect(text).not.toContain(tokenData().token.paymentToken);
  });
});
