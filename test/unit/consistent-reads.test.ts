import { LEASE_RULE } from '../../lib/core/domain/lease-rule.js';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { ConfigRepository } from '../../lib/adapters/dynamodb/config-repository.js';
import { OrderRepository } from '../../lib/adapters/dynamodb/order-repository.js';
import { PaymentRepository } from '../../lib/adapters/dynamodb/payment-repository.js';
import { ReplayRepository } from '../../lib/adapters/dynamodb/replay-repository.js';
import { SessionRepository } from '../../lib/adapters/dynamodb/session-repository.js';
import { onboardMerchant } from '../../lib/core/merchants/merchant-config.js';
import { upsertPaymentMethods } from '../../lib/core/merchants/payment-methods.js';

/**
 * Real DynamoDB reads are eventually consistent unless asked; the local engines always are,
 * so no end-to-end test can see a missing ConsistentRead. This records what the
 * repositories send and checks every read that must see a preceding write asks for it.
 */
type Sent = { command: string; input: Record<string, any> };
function recordingClient(answer: (sent: Sent) => unknown = () => ({})) {
  const sent: Sent[] = [];
  const client = {
    send: async (command: { constructor: { name: string }; input: Record<string, any> }) => {
      const entry = { command: command.constructor.name, input: command.input };
      sent.push(entry);
      const result = answer(entry);
      if (result instanceof Error) throw result;
      return result;
    },
  };
  return { client: client as never, sent };
}
const reads = (sent: Sent[]) => sent.filter((s) => s.command === 'GetCommand' || s.command === 'QueryCommand');

describe('reads that must see a write are strongly consistent', () => {
  it('a hosted session (the browser uses it the moment it was created)', async () => {
    const { client, sent } = recordingClient();
    await new SessionRepository(client, 'sessions').findByTokenHash('hash');
    expect(reads(sent).map((s) => s.input.ConsistentRead)).toEqual([true]);
  });

  it('a hosted session read with its order and payment (4.3, 4.10): one BatchGetItem, consistent on both tables', async () => {
    const { client, sent } = recordingClient(() => ({ Responses: {} }));
    await new SessionRepository(client, 'sessions', 'orders').findWithPayment('hash', { orderRef: 'o', paymentRef: 'p' });
    expect(sent.map((s) => s.command)).toEqual(['BatchGetCommand']);
    const tables = sent[0]!.input.RequestItems as Record<string, { ConsistentRead?: boolean; Keys: unknown[] }>;
    expect(Object.keys(tables).sort()).toEqual(['orders', 'sessions']);
    expect(Object.values(tables).map((t) => t.ConsistentRead)).toEqual([true, true]);
    expect(tables.orders!.Keys).toEqual([
      { pk: 'ORDER#o', sk: 'ORDER' },
      { pk: 'ORDER#o', sk: 'PAYMENT#p' },
    ]);
  });

  it('payments, pending 3DS and orders', async () => {
    const { client, sent } = recordingClient(() => ({ Items: [] }));
    await new PaymentRepository(client, 'orders').get('o', 'p');
    await new PaymentRepository(client, 'orders').getPendingThreeDs('o', 'p', Date.now());
    await new OrderRepository(client, 'orders').get('o');
    expect(reads(sent).map((s) => s.input.ConsistentRead)).toEqual([true, true, true]);
  });

  it('the payment-methods read-modify-write loop (4.5/4.6)', async () => {
    const { client, sent } = recordingClient();
    await upsertPaymentMethods(
      { config: new ConfigRepository(client, 'config'), now: Date.now },
      { level: 'tenant', tenantRef: 't' },
      { CLICK_TO_PAY: { enabled: false } },
    );
    expect(reads(sent).length).toBeGreaterThan(0);
    expect(reads(sent).every((s) => s.input.ConsistentRead === true)).toBe(true);
  });

  it('onboarding (4.7) reads the merchant and its outlets consistently', async () => {
    const { client, sent } = recordingClient();
    const keys = { currentKid: async () => 'kid' };
    await onboardMerchant({ config: new ConfigRepository(client, 'config'), keys, now: Date.now }, 'm', {
      tenantRef: 't',
      dpaId: 'd',
      dpaClientId: 'c',
      dpaName: 'n',
      cardBrands: ['visa'],
      locale: 'en',
      environment: 'sandbox',
      threeDsPolicy: 'never',
      outlets: ['o1', 'o2'],
    } as never);
    const merchantAndOutlets = reads(sent).filter((s) => /^(MERCHANT|OUTLET)#/.test(s.input.Key.pk));
    expect(merchantAndOutlets).toHaveLength(3);
    expect(merchantAndOutlets.every((s) => s.input.ConsistentRead === true)).toBe(true);
  });
});

describe('a failed condition brings the item it saw (ALL_OLD) instead of a second read', () => {
  const conditionFailed = (item?: Record<string, unknown>) =>
    Object.assign(new Error('failed'), { name: 'ConditionalCheckFailedException', ...(item ? { Item: marshall(item) } : {}) });

  it('the replay claim names the holder without reading when the engine returned it', async () => {
    const { client, sent } = recordingClient((s) => (s.command === 'UpdateCommand' ? conditionFailed({ pk: 'k', paymentRef: 'p-1' }) : {}));
    const claim = await new ReplayRepository(client, 'replay').claim('k', 'p-2');
    expect(claim).toEqual({ outcome: 'held', paymentRef: 'p-1' });
    expect(sent.find((s) => s.command === 'UpdateCommand')!.input.ReturnValuesOnConditionCheckFailure).toBe('ALL_OLD');
    expect(reads(sent)).toHaveLength(0);
  });

  it('and falls back to a consistent read where the engine ignores the parameter (dynalite)', async () => {
    const { client, sent } = recordingClient((s) => (s.command === 'UpdateCommand' ? conditionFailed() : { Item: { pk: 'k', paymentRef: 'p-1' } }));
    expect(await new ReplayRepository(client, 'replay').claim('k', 'p-2')).toEqual({ outcome: 'held', paymentRef: 'p-1' });
    expect(reads(sent).map((s) => s.input.ConsistentRead)).toEqual([true]);
  });

  it('the lease and the final write ask for the old item on a failed condition', async () => {
    const { client, sent } = recordingClient(() => ({ Attributes: { pk: 'ORDER#o', sk: 'PAYMENT#p', kind: 'PAYMENT', state: 'AUTHORISED' } }));
    const payments = new PaymentRepository(client, 'orders');
    await payments.acquireLease(
      { orderRef: 'o', paymentRef: 'p' },
      { from: 'STARTED', requires: LEASE_RULE.fresh('STARTED'), leaseId: 'l', leaseUntil: 2, now: 1, credential: 'c' },
    );
    await payments.finish({ orderRef: 'o', paymentRef: 'p' }, 'l', { state: 'AUTHORISED' }, undefined, [], Date.now());
    expect(sent.map((s) => s.input.ReturnValuesOnConditionCheckFailure)).toEqual(['ALL_OLD', 'ALL_OLD']);
  });
});
