import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handler as listHandler } from '../../functions/list-events/handler.js';
import { handler as redeliverHandler } from '../../functions/redeliver-event/handler.js';
import { EventRepository, type ItemKey } from '../../lib/adapters/dynamodb/event-repository.js';
import { HttpWebhookSender } from '../../lib/adapters/webhooks/sender.js';
import { documentClient } from '../../lib/composition/aws.js';
import { serviceConfig } from '../../lib/composition/config/service-config.js';
import { type OutboxWorkerDeps, sweep } from '../../lib/core/outbox/worker.js';
import { Logger } from '../../lib/core/ports/logger.js';
import { newSigningSecret } from '../../lib/core/webhooks/signing.js';
import { invoke } from './invoke.js';
import { outboxWorker } from './outbox-worker.js';

type Ids = { orderRef: string; paymentRef: string; merchantRef: string };

/**
 * For tests that run the webhook delivery worker themselves, over real sockets: receivers that
 * count what they get, workers of their own for one merchant's endpoint, the events as stored,
 * and the events API (4.15) as `bearer()` (or the token given). The worker logs into `lines`;
 * the test file closes what `closers` holds after each test.
 */
export function webhookDeliveryHarness(bearer: () => string) {
  const table = serviceConfig.ORDERS_TABLE;
  const lines: string[] = [];
  const logger = new Logger({}, 'debug', (line) => lines.push(line));
  const closers: (() => Promise<void>)[] = [];
  const paymentKey = (w: Ids): ItemKey => ({ pk: `ORDER#${w.orderRef}`, sk: `PAYMENT#${w.paymentRef}` });

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
          m === merchantRef
            ? { url, enabled: true, allowLoopback: options.allowLoopback ?? true, secrets: options.secrets ?? [newSigningSecret()] }
            : undefined,
      },
      sender: new HttpWebhookSender({ timeoutMs: 2_000, ...(options.lookup ? { lookup: options.lookup } : {}) }),
      now: Date.now,
      settings: { retryDelaysMs: [60_000], claimMs: 15_000 },
    });
  }
  const sweepAll = (deps: OutboxWorkerDeps) => sweep(deps, logger, { perShard: 100, concurrency: 4, stopAt: Number.POSITIVE_INFINITY });
  const storedEvents = (merchantRef: string) => new EventRepository(documentClient, table).list(merchantRef, undefined, 100);
  const list = (merchantRef: string, token: string) =>
    invoke(listHandler, { method: 'GET', path: `/config/merchants/${merchantRef}/events`, pathParameters: { merchantRef }, token });
  const redeliver = (merchantRef: string, eventId: string, token = bearer()) =>
    invoke(redeliverHandler, {
      method: 'POST',
      path: `/config/merchants/${merchantRef}/events/${eventId}/redeliver`,
      pathParameters: { merchantRef, eventId },
      token,
    });

  return { table, lines, logger, closers, paymentKey, slowReceiver, worker, sweepAll, storedEvents, list, redeliver };
}
