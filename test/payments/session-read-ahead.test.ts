import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentClient } from '../../lib/composition/aws.js';
import { orderRepository, sessionRepository } from '../../lib/composition/core.js';
import { hashSessionToken, newSessionToken } from '../../lib/core/auth/session-token.js';
import { checkoutResponse, currentRecipientKey } from '../support/checkout.js';
import { completeThreeDs, pay, strangerCres } from '../support/payments.js';
import { seedWorld, uniqueRef } from '../support/seed.js';
import { sessionTokenFor } from '../support/sessions.js';
import { platformToken } from '../support/tokens.js';

/**
 * Issue 11 item 2: a hosted-session request to 4.3 or 4.10 reads its session, the order and
 * the payment in one strongly consistent BatchGetItem (lib/http/api-handler.ts `readAhead`),
 * not a GetItem and then a Query. What each request sends to the sessions and orders tables is
 * recorded from the document client; the answers stay those of SPEC §1 (401, 404, 400).
 */
const SESSIONS = process.env.SESSIONS_TABLE!;
const ORDERS = process.env.ORDERS_TABLE!;

type Sent = { command: string; tables: string[]; consistent?: boolean };
function recordReads() {
  const sent: Sent[] = [];
  const original = documentClient.send.bind(documentClient) as (command: unknown, options?: unknown) => Promise<unknown>;
  vi.spyOn(documentClient, 'send').mockImplementation(((command: { constructor: { name: string }; input: Record<string, any> }, options?: unknown) => {
    const { input } = command;
    const tables = input.RequestItems ? Object.keys(input.RequestItems).sort() : [input.TableName];
    sent.push({
      command: command.constructor.name,
      tables,
      consistent: input.ConsistentRead ?? Object.values<any>(input.RequestItems ?? {})[0]?.ConsistentRead,
    });
    return original(command, options);
  }) as never);
  const reads = () => sent.filter((s) => /^(Get|BatchGet|Query)Command$/.test(s.command) && s.tables.some((t) => t === SESSIONS || t === ORDERS));
  return { sent, reads };
}

let platform: string;
beforeAll(async () => {
  platform = await platformToken();
  await currentRecipientKey();
});
afterEach(() => vi.restoreAllMocks());

describe('a hosted session, its order and its payment: one read', () => {
  it('4.3 pays with one BatchGetItem over the sessions and orders tables, consistent, and no other read of them', async () => {
    const world = await seedWorld();
    const token = await sessionTokenFor(world);
    const { reads } = recordReads();
    const paid = await pay(world, token, await checkoutResponse());
    expect(paid.status).toBe(200);
    expect(paid.body.state).toBe('AUTHORISED');
    expect(reads()).toEqual([{ command: 'BatchGetCommand', tables: [ORDERS, SESSIONS].sort(), consistent: true }]);
  });

  it('4.10 too (a STARTED payment: 409 after the one read)', async () => {
    const world = await seedWorld();
    const token = await sessionTokenFor(world);
    const { reads } = recordReads();
    const refused = await completeThreeDs(world, token, strangerCres());
    expect(refused.status).toBe(409);
    expect(reads()[0]).toEqual({ command: 'BatchGetCommand', tables: [ORDERS, SESSIONS].sort(), consistent: true });
    expect(reads().filter((r) => r.command === 'QueryCommand' || r.tables.includes(SESSIONS))).toHaveLength(1);
  });

  it('an access token reads nothing with its (local) verification: the order is one consistent Query', async () => {
    const world = await seedWorld();
    const { reads } = recordReads();
    expect((await pay(world, platform, await checkoutResponse())).body.state).toBe('AUTHORISED');
    expect(reads()).toEqual([{ command: 'QueryCommand', tables: [ORDERS], consistent: true }]);
  });

  it('the order it reads is the one OrderRepository.get gives, for that payment', async () => {
    const world = await seedWorld();
    const token = await sessionTokenFor(world);
    const { session, order } = await sessionRepository.findWithPayment(hashSessionToken(token), world);
    const whole = await orderRepository.get(world.orderRef);
    expect(session?.orderRef).toBe(world.orderRef);
    expect(order).toEqual({ order: whole!.order, payments: whole!.payments.filter((p) => p.paymentRef === world.paymentRef) });
    expect(await sessionRepository.findWithPayment(hashSessionToken(newSessionToken()), { orderRef: uniqueRef('o'), paymentRef: 'p' })).toEqual({
      session: undefined,
      order: undefined,
    });
  });

  it('an unknown or expired session is 401, before the body is looked at (SPEC §1 order), though the order was read beside it', async () => {
    const world = await seedWorld();
    const expired = await sessionTokenFor(world, -1);
    for (const token of [newSessionToken(), expired]) {
      const refused = await pay(world, token, { not: 'a checkout response' });
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe('UNAUTHENTICATED');
    }
  });

  it("a session on another order's path, or naming a payment the order lacks, is 404: what was read ahead is never used for another payment", async () => {
    const [own, other] = [await seedWorld(), await seedWorld()];
    const token = await sessionTokenFor(own);
    expect((await pay({ ...other, outletId: own.outletId }, token, await checkoutResponse())).status).toBe(404);
    expect((await pay(other, token, await checkoutResponse())).status).toBe(404);
    expect((await pay({ ...own, paymentRef: uniqueRef('p') }, token, await checkoutResponse())).status).toBe(404);
    expect((await pay(own, token, await checkoutResponse())).body.state).toBe('AUTHORISED');
  });

  it('a path the route refuses is not read ahead: the session alone is looked up, then 400', async () => {
    const world = await seedWorld();
    const token = await sessionTokenFor(world);
    const { reads } = recordReads();
    const refused = await pay({ ...world, paymentRef: 'x'.repeat(500) }, token, await checkoutResponse());
    expect(refused.status).toBe(400);
    expect(reads()).toEqual([{ command: 'GetCommand', tables: [SESSIONS], consistent: true }]);
  });

  it('a throttled read is a 503 with Retry-After, and nothing was paid', async () => {
    const world = await seedWorld();
    const token = await sessionTokenFor(world);
    const original = documentClient.send.bind(documentClient) as (command: unknown, options?: unknown) => Promise<unknown>;
    vi.spyOn(documentClient, 'send').mockImplementation(((command: { constructor: { name: string } }, options?: unknown) =>
      command.constructor.name === 'BatchGetCommand'
        ? Promise.reject(Object.assign(new Error('slow down'), { name: 'ProvisionedThroughputExceededException' }))
        : original(command, options)) as never);
    const refused = await pay(world, token, await checkoutResponse());
    expect(refused.status).toBe(503);
    expect(refused.headers['Retry-After'] ?? refused.headers['retry-after']).toBeDefined();
    vi.restoreAllMocks();
    expect((await pay(world, token, await checkoutResponse())).body.state).toBe('AUTHORISED');
  });
});
