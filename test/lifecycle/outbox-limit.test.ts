/**
 * Each state change of a payment appends an event to the outbox on the payment item, drained by
 * the delivery worker (SPEC §4.15). While the worker is down the item must not grow past
 * DynamoDB's 400 KB: operations are refused before the acquirer (503), never failed after it.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EventRepository } from '../../lib/adapters/dynamodb/event-repository.js';
import { authorizer } from '../support/sandbox-acquirer.js';
import { documentClient } from '../../lib/composition/aws.js';
import { serviceConfig } from '../../lib/composition/config/service-config.js';
import { drainOutbox } from '../../lib/core/outbox/worker.js';
import { aed, authorizedWorld, capture, expectConsistent } from '../support/lifecycle.js';
import { outboxWorker } from '../support/outbox-worker.js';
import { platformToken } from '../support/tokens.js';

let token: string;
beforeAll(async () => {
  token = await platformToken();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the outbox on the payment item stays bounded', () => {
  it('while the delivery worker is down, many operations never grow the item past 400 KB: refused before the acquirer (503), never a 500 after it', async () => {
    const w = await authorizedWorld({ amount: 100_000 });
    const modify = vi.spyOn(authorizer, 'modify');
    let refused: Awaited<ReturnType<typeof capture>> | undefined;
    for (let i = 0; i < 90 && !refused; i++) {
      const answer = await capture(w, token, aed(10));
      if (answer.status !== 201) refused = answer;
    }
    expect(refused, 'every capture went through: the outbox gate is gone').toBeDefined();
    expect([refused!.status, refused!.body.code], refused!.raw).toEqual([503, 'DEPENDENCY_UNAVAILABLE']);
    expect(Number(refused!.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    const p = await expectConsistent(w);
    expect(Object.values(p.operations ?? {}).filter((o) => o.state !== 'SUCCEEDED')).toEqual([]); // nothing half-done
    expect(modify).toHaveBeenCalledTimes(Object.keys(p.operations ?? {}).length);
    // Once the worker drained the outbox, the payment takes operations again.
    const events = new EventRepository(documentClient, serviceConfig.ORDERS_TABLE);
    await drainOutbox(
      outboxWorker({
        store: events,
        endpoints: { endpointFor: async () => undefined },
        sender: { send: async () => ({ ok: false, durationMs: 0 }) },
        settings: { retryDelaysMs: [], claimMs: 1_000 },
      }),
      { pk: `ORDER#${w.orderRef}`, sk: `PAYMENT#${w.paymentRef}` },
    );
    expect((await capture(w, token, aed(10))).status).toBe(201);
  });
});
