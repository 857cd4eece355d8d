import { afterEach, describe, expect, it, vi } from 'vitest';
import { DependencyUnavailableError, type DomainError } from '../../lib/core/errors.js';
import { metrics } from '../../lib/core/ports/metrics.js';
import { BATCH_GET, batchGet } from '../../lib/adapters/dynamodb/batch-get.js';
import { statusOf } from '../../lib/http/error-status.js';

/**
 * BatchGetItem may answer only part of a request (UnprocessedKeys: a throttled partition).
 * Those keys are asked again; a read that still lacks them is a 503, never an answer that
 * silently leaves an item out (a session read as "unknown" would be a wrong 401).
 */
type Sent = { RequestItems: Record<string, { Keys: Record<string, unknown>[]; ConsistentRead?: boolean }> };
function fakeClient(answers: Array<(sent: Sent) => unknown>) {
  const sent: Sent[] = [];
  const client = {
    send: async (command: { input: Sent }) => {
      sent.push(structuredClone(command.input));
      const answer = answers[Math.min(sent.length - 1, answers.length - 1)]!(command.input);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return { client: client as never, sent };
}
const request = {
  sessions: { Keys: [{ pk: 'h' }], ConsistentRead: true },
  orders: {
    Keys: [
      { pk: 'ORDER#o', sk: 'ORDER' },
      { pk: 'ORDER#o', sk: 'PAYMENT#p' },
    ],
    ConsistentRead: true,
  },
};
const session = { pk: 'h', orderRef: 'o' };
const order = { pk: 'ORDER#o', sk: 'ORDER', kind: 'ORDER' };
const payment = { pk: 'ORDER#o', sk: 'PAYMENT#p', kind: 'PAYMENT' };

afterEach(() => vi.restoreAllMocks());

describe('batchGet', () => {
  it('answers every table, with an empty list where nothing was found', async () => {
    const { client, sent } = fakeClient([() => ({ Responses: { sessions: [session] } })]);
    expect(await batchGet(client, request)).toEqual({ sessions: [session], orders: [] });
    expect(sent).toHaveLength(1);
  });

  it('asks again for the keys DynamoDB left unprocessed (only those, still consistent) and merges the answers', async () => {
    const unprocessed = { orders: { Keys: [{ pk: 'ORDER#o', sk: 'PAYMENT#p' }], ConsistentRead: true } };
    const { client, sent } = fakeClient([
      () => ({ Responses: { sessions: [session], orders: [order] }, UnprocessedKeys: unprocessed }),
      () => ({ Responses: { orders: [payment] }, UnprocessedKeys: {} }),
    ]);
    expect(await batchGet(client, request)).toEqual({ sessions: [session], orders: [order, payment] });
    expect(sent.map((s) => s.RequestItems)).toEqual([request, unprocessed]);
  });

  it(`gives up after ${BATCH_GET.attempts} calls with keys still unprocessed: a 503 (DependencyUnavailable), counted as a DynamoDB throttle`, async () => {
    const count = vi.spyOn(metrics, 'count');
    const { client, sent } = fakeClient([() => ({ Responses: { sessions: [session] }, UnprocessedKeys: { orders: request.orders } })]);
    const failure = await batchGet(client, request).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DependencyUnavailableError);
    expect(statusOf(failure as DependencyUnavailableError).status).toBe(503);
    expect(sent).toHaveLength(BATCH_GET.attempts);
    expect(count).toHaveBeenCalledWith('DependencyErrors', { dependency: 'dynamodb', reason: 'throttled' });
  });

  it('a failed call is mapped like every DynamoDB call: throttling → 503, a validation error (our bug) → 500', async () => {
    const throttled = Object.assign(new Error('slow down'), { name: 'ProvisionedThroughputExceededException' });
    const invalid = Object.assign(new Error('bad'), { name: 'ValidationException' });
    const first = await batchGet(fakeClient([() => throttled]).client, request).catch((error: DomainError) => error);
    const second = await batchGet(fakeClient([() => invalid]).client, request).catch((error: DomainError) => error);
    expect([statusOf(first as DomainError).status, statusOf(second as DomainError).status]).toEqual([503, 500]);
  });
});
