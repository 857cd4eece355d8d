import { storedItem } from '../support/stored-item.js';
/**
 * Red team: the event outbox, the delivery worker and the events endpoints (SPEC §4.15),
 * attacked as an outsider and as an operator would. Each test fails if its defence breaks.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as getConfigHandler } from '../../functions/get-webhook-config/handler.js';
import { handler as listHandler } from '../../functions/list-events/handler.js';
import { handler as putConfigHandler } from '../../functions/put-webhook-config/handler.js';
import { handler as redeliverHandler } from '../../functions/redeliver-event/handler.js';
import { documentClient } from '../../lib/composition/aws.js';
import { serviceConfig } from '../../lib/composition/config/service-config.js';
import { Logger } from '../../lib/core/ports/logger.js';
import { EventRepository, eventKey, type ItemKey } from '../../lib/adapters/dynamodb/event-repository.js';
import { dueItemOf } from '../../lib/adapters/dynamodb/due-items.js';
import { drainOutbox, processDue, sweep, type OutboxWorkerDeps } from '../../lib/core/outbox/worker.js';
import { HttpWebhookSender } from '../../lib/adapters/webhooks/sender.js';
import { newSigningSecret } from '../../lib/core/webhooks/signing.js';
import { tokenData } from '../support/direct-wallet.js';
import { invoke } from '../support/invoke.js';
import { aed, authorizedWorld, capture, refund } from '../support/lifecycle.js';
import { seedMerchant } from '../support/seed.js';
import { platformToken, tenantToken } from '../support/tokens.js';
import { outboxWorker } from '../support/outbox-worker.js';

const table = serviceConfig.ORDERS_TABLE;
const lines: string[] = [];
const logger = new Logger({}, 'debug', (line) => lines.push(line));
const closers: (() => Promise<void>)[] = [];
let token: string;
beforeAll(async () => {
  token = await platformToken();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(closers.splice(0).map((close) => close()));
});

type Ids = { orderRef: string; paymentRef: string; merchantRef: string };
const paymentKey = (w: Ids): ItemKey => ({ pk: `ORDER#${w.orderRef}`, sk: `PAYMENT#${w.paymentRef}` });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A receiver that answers `status` after `delayMs`, counting requests per webhook-id and how many overlap. */
async function slowReceiver(delayMs: number, status = 200) {
  let inFlight = 0;
  let maxInFlight = 0;
  const received: { id: string; body: string }[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ id: String(request.headers['webhook-id']), body: Buffer.concat(chunks).toString('utf8') });
      setTimeout(() => {
        inFlight--;
        response.writeHead(status).end();
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, maxInFlight: () => maxInFlight, inFlight: () => inFlight };
}

/** A delivery worker of its own (own repository instance, real clock) for one merchant's endpoint. */
function worker(
  merchantRef: string,
  url: string,
  options: { lookup?: (host: string) => Promise<{ address: string; family: 4 | 6 }[]>; allowLoopback?: boolean; secrets?: string[] } = {},
): OutboxWorkerDeps {
  return outboxWorker({
    store: new EventRepository(documentClient, table),
    endpoints: {
      endpointFor: async (m) =>
        m === merchantRef ? { url, enabled: true, allowLoopback: options.allowLoopback ?? true, secrets: options.secrets ?? [newSigningSecret()] } : undefined,
    },
    sender: new HttpWebhookSender({ timeoutMs: 2_000, ...(options.lookup ? { lookup: options.lookup } : {}) }),
    now: Date.now,
    settings: { retryDelaysMs: [60_000], claimMs: 15_000 },
  });
}
const sweepAll = (deps: OutboxWorkerDeps) => sweep(deps, logger, { perShard: 100, concurrency: 4, stopAt: Number.POSITIVE_INFINITY });
const storedEvents = (merchantRef: string) => new EventRepository(documentClient, table).list(merchantRef, undefined, 100);
const list = (merchantRef: string, bearer: string) =>
  invoke(listHandler, { method: 'GET', path: `/config/merchants/${merchantRef}/events`, pathParameters: { merchantRef }, token: bearer });
const redeliver = (merchantRef: string, eventId: string, bearer = token) =>
  invoke(redeliverHandler, {
    method: 'POST',
    path: `/config/merchants/${merchantRef}/events/${eventId}/redeliver`,
    pathParameters: { merchantRef, eventId },
    token: bearer,
  });

describe('RT-W: the outbox and the delivery worker under concurrency', () => {
  it('RT-W1: two workers draining one outbox while the payment changes again lose no event', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const receiver = await slowReceiver(0);
    const a = worker(w.merchantRef, receiver.url);
    const b = worker(w.merchantRef, receiver.url);
    // B has read the outbox [authorised] and stored it; before B clears, A drains it too and
    // a capture appends [partially_captured]: an outbox of the same length B saw.
    const clearB = b.store.clearOutbox.bind(b.store);
    vi.spyOn(b.store, 'clearOutbox').mockImplementationOnce(async (key, count) => {
      expect(await drainOutbox(a, key)).toHaveLength(1);
      expect((await capture(w, token, aed(100))).status).toBe(201);
      return clearB(key, count);
    });
    await drainOutbox(b, paymentKey(w));
    await sweepAll(a);
    await sweepAll(a);
    const types = (await storedEvents(w.merchantRef)).map((e) => e.type);
    expect(types).toEqual(['payment.authorised', 'payment.partially_captured']);
    expect(receiver.received.map((r) => JSON.parse(r.body).type).sort()).toEqual(['payment.authorised', 'payment.partially_captured']);
  });

  it('held: one outbox drained by four workers at once: each event stored once and sent once', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    await capture(w, token, aed(100));
    await refund(w, token, aed(50));
    const receiver = await slowReceiver(50);
    const workers = Array.from({ length: 4 }, () => worker(w.merchantRef, receiver.url));
    await Promise.all(workers.map((deps) => processDue(deps, dueItemOf(paymentKey(w).pk, paymentKey(w).sk), logger)));
    await Promise.all(workers.map(sweepAll));
    const stored = await storedEvents(w.merchantRef);
    expect(stored.map((e) => e.type)).toEqual(['payment.authorised', 'payment.partially_captured', 'payment.partially_refunded']);
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(3);
    expect(receiver.maxInFlight()).toBeLessThanOrEqual(3); // never the same event twice at once
  });

  it('held: two sweeps of a due event at the same moment send it once', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const receiver = await slowReceiver(100);
    const first = worker(w.merchantRef, receiver.url);
    await drainOutbox(first, paymentKey(w)); // the event item, due now, not yet sent
    const [event] = await storedEvents(w.merchantRef);
    const sweeps = Array.from({ length: 6 }, () => worker(w.merchantRef, receiver.url));
    await Promise.all(sweeps.map((deps) => processDue(deps, { ref: eventKey(w.merchantRef, event!.id), kind: 'webhook' }, logger)));
    expect(receiver.received).toHaveLength(1);
    expect((await storedEvents(w.merchantRef))[0]).toMatchObject({ status: 'DELIVERED', attempts: [{ status: 200 }] });
  });

  it('RT-W2: a redelivery while an attempt is in flight never has the event sent twice at once, and the attempt is recorded', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const receiver = await slowReceiver(400);
    const a = worker(w.merchantRef, receiver.url);
    const b = worker(w.merchantRef, receiver.url);
    await drainOutbox(a, paymentKey(w));
    const [event] = await storedEvents(w.merchantRef);
    const key = eventKey(w.merchantRef, event!.id);
    const running = processDue(a, { ref: key, kind: 'webhook' }, logger);
    while (receiver.inFlight() === 0) await sleep(10); // A's POST is at the receiver
    const asked = await redeliver(w.merchantRef, event!.id);
    expect(asked.status, asked.raw).toBe(202);
    await processDue(b, { ref: key, kind: 'webhook' }, logger); // a second worker right after the redelivery
    await running;
    expect(receiver.maxInFlight()).toBe(1);
    const [after] = await storedEvents(w.merchantRef);
    expect(after!.attempts.filter((attempt) => attempt.status === 200).length).toBe(receiver.received.length);
    expect(after!.status).toBe('PENDING'); // the redelivery is still owed: due once A's claim is over
    expect(after!.dueAt).toBeGreaterThan(Date.now());
    const later = { ...b, now: () => Date.now() + 15_001 };
    expect(await processDue(later, { ref: key, kind: 'webhook' }, logger)).toEqual(['delivered']);
    expect(receiver.received).toHaveLength(2);
    expect((await storedEvents(w.merchantRef))[0]).toMatchObject({ status: 'DELIVERED', attempts: [{ status: 200 }, { status: 200 }] });
  });
});

describe('RT-W: SSRF at delivery time', () => {
  it('held: a name that resolves to metadata, private or mapped addresses at delivery is never connected to (DNS rebinding)', async () => {
    const receiver = await slowReceiver(0);
    const port = new URL(receiver.url).port;
    for (const address of ['169.254.169.254', '10.1.2.3', '::ffff:169.254.169.254', '64:ff9b::a9fe:a9fe', 'fd00:ec2::254', '127.0.0.1']) {
      const w = await authorizedWorld({ amount: 1000 });
      const family = address.includes(':') ? 6 : 4;
      // Passed the PUT check (public), resolves elsewhere now; 127.0.0.1 is where the receiver listens.
      const deps = worker(w.merchantRef, `https://hooks.merchant.example:${port}/hook`, { allowLoopback: false, lookup: async () => [{ address, family }] });
      await sweepAll(deps);
      const [stored] = await storedEvents(w.merchantRef);
      expect(stored!.attempts, address).toMatchObject([{ error: 'blocked-address' }]);
    }
    expect(receiver.received).toHaveLength(0);
  });

  it('held: a name with one public and one private address is refused as a whole', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const deps = worker(w.merchantRef, 'https://hooks.merchant.example/hook', {
      allowLoopback: false,
      lookup: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '192.168.0.10', family: 4 },
      ],
    });
    await sweepAll(deps);
    expect((await storedEvents(w.merchantRef))[0]!.attempts).toMatchObject([{ error: 'blocked-address' }]);
  });

  it('held: a redirect is a failed attempt and its target is never requested; an endless answer ends within the timeout', async () => {
    const target = await slowReceiver(0);
    const redirecting = createServer((_request, response) => response.writeHead(307, { location: target.url }).end());
    const endless = createServer((_request, response) => {
      response.writeHead(200);
      const timer = setInterval(() => response.write('x'.repeat(1024)), 1);
      response.on('close', () => clearInterval(timer));
    });
    for (const server of [redirecting, endless]) {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      closers.push(
        () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      );
    }
    const url = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const w1 = await authorizedWorld();
    await sweepAll(worker(w1.merchantRef, url(redirecting)));
    expect((await storedEvents(w1.merchantRef))[0]).toMatchObject({ status: 'PENDING', attempts: [{ status: 307 }] });
    expect(target.received).toHaveLength(0);
    const w2 = await authorizedWorld();
    const started = Date.now();
    await sweepAll(worker(w2.merchantRef, url(endless)));
    expect(Date.now() - started).toBeLessThan(2_500);
    expect((await storedEvents(w2.merchantRef))[0]).toMatchObject({ status: 'DELIVERED', attempts: [{ status: 200 }] });
  });
});

describe('RT-W: whose events', () => {
  it("held: merchant B's tenant token can neither list nor redeliver merchant A's events, by A's path or its own", async () => {
    const a = await authorizedWorld();
    const b = await authorizedWorld();
    await sweepAll(worker('nobody', 'https://unused.example/')); // NOT_CONFIGURED: stored, never sent
    const [event] = await storedEvents(a.merchantRef);
    const before = await storedItem(eventKey(a.merchantRef, event!.id), table);
    const tenantB = await tenantToken({ tenantRef: b.tenantRef, permissions: ['MANAGE_WEBHOOKS'] });
    const merchantB = await tenantToken({ tenantRef: b.tenantRef, merchantRef: b.merchantRef, permissions: ['MANAGE_WEBHOOKS'] });
    for (const bearer of [tenantB, merchantB]) {
      expect((await list(a.merchantRef, bearer)).status).toBe(404);
      expect((await redeliver(a.merchantRef, event!.id, bearer)).status).toBe(404);
      expect((await redeliver(b.merchantRef, event!.id, bearer)).status).toBe(404); // A's id under B's merchant
      const own = await list(b.merchantRef, bearer);
      expect(own.status).toBe(200);
      expect(own.raw).not.toContain(a.paymentRef);
    }
    // A merchant-narrowed token of A's own tenant, narrowed to another merchant, is a stranger too.
    const sibling = await tenantToken({ tenantRef: a.tenantRef, merchantRef: b.merchantRef, permissions: ['MANAGE_WEBHOOKS'] });
    expect((await list(a.merchantRef, sibling)).status).toBe(404);
    expect(await storedItem(eventKey(a.merchantRef, event!.id), table)).toEqual(before);
  });

  it("RT-W3: a token narrowed to one merchant's outlets neither reads nor redirects a sibling merchant's webhooks and events", async () => {
    const a = await authorizedWorld();
    const sibling = await seedMerchant({ tenantRef: a.tenantRef });
    const hook = (merchantRef: string, bearer: string, body?: unknown) =>
      invoke(body ? putConfigHandler : getConfigHandler, {
        method: body ? 'PUT' : 'GET',
        path: `/config/merchants/${merchantRef}/configs/webhooks`,
        pathParameters: { merchantRef },
        token: bearer,
        ...(body ? { body } : {}),
      });
    expect((await hook(sibling.merchantRef, token, { url: 'http://127.0.0.1:9/merchant-b' })).status).toBe(200);
    const outletOfA = await tenantToken({ tenantRef: a.tenantRef, outletIds: [a.outletId], permissions: ['MANAGE_WEBHOOKS'] });
    // SPEC §1: a merchant's webhooks and events are reached only by a token covering the whole merchant.
    expect((await hook(sibling.merchantRef, outletOfA, { url: 'http://127.0.0.1:9/attacker' })).status).toBe(404);
    expect((await hook(sibling.merchantRef, outletOfA)).status).toBe(404);
    expect((await list(sibling.merchantRef, outletOfA)).status).toBe(404);
    expect((await hook(sibling.merchantRef, token)).body.url).toBe('http://127.0.0.1:9/merchant-b');
    // Nor its own merchant's, through one of its two outlets; narrowed to both, it manages them.
    expect((await list(a.merchantRef, outletOfA)).status).toBe(404);
    expect((await hook(a.merchantRef, outletOfA, { url: 'http://127.0.0.1:9/merchant-a' })).status).toBe(404);
    const allOutletsOfA = await tenantToken({ tenantRef: a.tenantRef, outletIds: [a.outletId, a.otherOutletId], permissions: ['MANAGE_WEBHOOKS'] });
    expect((await list(a.merchantRef, allOutletsOfA)).status).toBe(200);
    expect((await hook(a.merchantRef, allOutletsOfA, { url: 'http://127.0.0.1:9/merchant-a' })).status).toBe(200);
  });

  it('held: event bodies, stored items and delivery logs carry no card number, cryptogram, secret or signature', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    await capture(w, token, aed(400));
    await refund(w, token, aed(100));
    const receiver = await slowReceiver(0, 500);
    const secret = newSigningSecret();
    const deps = worker(w.merchantRef, receiver.url, { secrets: [secret] });
    lines.length = 0;
    await sweepAll(deps);
    const items = await Promise.all((await storedEvents(w.merchantRef)).map((e) => storedItem(eventKey(w.merchantRef, e.id), table)));
    const everything = [JSON.stringify(items), ...receiver.received.map((r) => r.body), lines.join('\n'), (await list(w.merchantRef, token)).raw].join('\n');
    const card = tokenData();
    expect(receiver.received).toHaveLength(3);
    for (const needle of [card.token.paymentToken, card.dynamicData.dynamicDataValue, secret, secret.slice(6), 'v1,']) {
      expect(everything, needle).not.toContain(needle);
    }
  });
});
