import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient } from '../../lib/composition/aws.js';
import { ReplayRepository } from '../../lib/adapters/dynamodb/replay-repository.js';

/** SPEC 4.3 step 4: one claim per checkout response, TTL 24 h; an expired claim counts as absent. */
const replay = new ReplayRepository(documentClient, process.env.REPLAY_TABLE!);
const DAY = 24 * 3600 * 1000;

describe('replay guard', () => {
  it('is claimed by one payment, for 24 hours, and stays with it', async () => {
    const key = randomUUID();
    const now = Date.now();
    expect(await replay.claim(key, 'pay-1', now)).toEqual({ outcome: 'claimed' });
    const { Item } = await documentClient.send(new GetCommand({ TableName: process.env.REPLAY_TABLE, Key: { pk: key } }));
    expect(Item!.expiresAt).toBe(Math.floor(now / 1000) + 24 * 3600);
    expect(await replay.claim(key, 'pay-2', now + 1000)).toEqual({ outcome: 'held', paymentRef: 'pay-1' });
    expect(await replay.claim(key, 'pay-1', now + 2000)).toEqual({ outcome: 'claimed' }); // the same payment again
    expect(await replay.claim(key, 'pay-2', now + DAY - 5000)).toEqual({ outcome: 'held', paymentRef: 'pay-1' });
  });

  it('treats a claim past its TTL as absent, although DynamoDB has not deleted it yet', async () => {
    const key = randomUUID();
    const now = Date.now();
    await replay.claim(key, 'pay-1', now - DAY - 5000);
    expect(await replay.claim(key, 'pay-2', now)).toEqual({ outcome: 'claimed' });
  });

  it('serializes concurrent claims: exactly one payment wins', async () => {
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => replay.claim(key, `pay-${i}`)));
    const winners = results.filter((r) => r.outcome === 'claimed');
    expect(winners).toHaveLength(1);
    const owner = (results.find((r) => r.outcome === 'held') as { paymentRef: string }).paymentRef;
    expect(results.every((r) => r.outcome === 'claimed' || r.paymentRef === owner)).toBe(true);
  });
});
