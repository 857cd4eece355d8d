import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { ReplayRepository } from '../../lib/adapters/dynamodb/replay-repository.js';

/**
 * SPEC 4.3 step 4 in writes: a new checkout response is one conditional write with the
 * cheapest condition (attribute_not_exists) and nothing sent back; a claim already there is
 * answered from the item the failed condition returned — another payment's live claim with no
 * second write, this payment's own claim or an expired one with the full condition.
 */
type Sent = { command: string; input: Record<string, any> };
function engine(items: Record<string, Record<string, unknown>>) {
  const sent: Sent[] = [];
  const client = {
    send: async (command: { constructor: { name: string }; input: Record<string, any> }) => {
      const { input } = command;
      sent.push({ command: command.constructor.name, input });
      const existing = items[input.Key.pk];
      if (command.constructor.name === 'GetCommand') return { Item: existing };
      const now = input.ExpressionAttributeValues[':now'];
      const passes =
        input.ConditionExpression === 'attribute_not_exists(pk)'
          ? !existing
          : !existing || (existing.expiresAt as number) < now || existing.paymentRef === input.ExpressionAttributeValues[':payment'];
      if (!passes) throw Object.assign(new Error('failed'), { name: 'ConditionalCheckFailedException', Item: marshall(existing!) });
      items[input.Key.pk] = {
        ...existing,
        pk: input.Key.pk,
        paymentRef: input.ExpressionAttributeValues[':payment'],
        expiresAt: input.ExpressionAttributeValues[':expiresAt'],
      };
      return input.ReturnValues === 'ALL_OLD' ? { Attributes: existing } : {};
    },
  };
  return { replay: new ReplayRepository(client as never, 'replay'), sent, items };
}
const NOW = 1_800_000_000_000;
const nowSeconds = NOW / 1000;

describe('replay claim', () => {
  it('a new checkout response: one write, attribute_not_exists only, nothing sent back', async () => {
    const { replay, sent } = engine({});
    expect(await replay.claim('k', 'p-1', NOW)).toEqual({ outcome: 'claimed' });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.input).toMatchObject({ ConditionExpression: 'attribute_not_exists(pk)', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' });
    expect(sent[0]!.input.ReturnValues).toBeUndefined();
  });

  it("another payment's live claim: held, answered from the failed condition's item, no second write", async () => {
    const { replay, sent } = engine({ k: { pk: 'k', paymentRef: 'p-1', expiresAt: nowSeconds + 60 } });
    expect(await replay.claim('k', 'p-2', NOW)).toEqual({ outcome: 'held', paymentRef: 'p-1' });
    expect(sent.map((s) => s.command)).toEqual(['UpdateCommand']);
  });

  it('this payment again: claimed, with the refusal it recorded', async () => {
    const refused = { paymentRef: 'p-1', code: 'CHECKOUT_PAYLOAD_INVALID', detail: 'The payment data is invalid.' };
    const { replay, sent } = engine({ k: { pk: 'k', paymentRef: 'p-1', expiresAt: nowSeconds + 60, refused } });
    expect(await replay.claim('k', 'p-1', NOW)).toEqual({ outcome: 'claimed', refused: { code: refused.code, detail: refused.detail } });
    expect(sent).toHaveLength(2);
  });

  it("another payment's expired claim is taken over (its refusal is not ours)", async () => {
    const { replay, items } = engine({
      k: { pk: 'k', paymentRef: 'p-1', expiresAt: nowSeconds - 1, refused: { paymentRef: 'p-1', code: 'CHECKOUT_DECRYPTION_FAILED', detail: '' } },
    });
    expect(await replay.claim('k', 'p-2', NOW)).toEqual({ outcome: 'claimed' });
    expect(items.k!.paymentRef).toBe('p-2');
  });

  it('a claim without an expiry counts as live, as the condition does', async () => {
    const { replay } = engine({ k: { pk: 'k', paymentRef: 'p-1' } });
    expect(await replay.claim('k', 'p-2', NOW)).toEqual({ outcome: 'held', paymentRef: 'p-1' });
  });
});
