/**
 * What an Idempotency-Key record holds (SPEC §1, §3: no card data, token, cryptogram or secret
 * at rest): Powertools' bookkeeping, a keyed fingerprint of the request and the sealed
 * response, never the request body, the key or a session token in clear.
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createSession } from '../../functions/create-hosted-session/handler.js';
import { handler as payDirect } from '../../functions/pay-direct/handler.js';
import { handler as complete3ds } from '../../functions/complete-3ds/handler.js';
import { documentClient } from '../../lib/composition/aws.js';
import { IDEMPOTENCY_WINDOW_SECONDS } from '../../lib/http/idempotency.js';
import { deriveSecrets, openResponse } from '../../lib/http/idempotency-seal.js';
import { tokenData } from '../support/direct-wallet.js';
import { idempotencyRecords } from '../support/idempotency.js';
import { invoke } from '../support/invoke.js';
import { answerChallenge } from '../support/payments.js';
import { seedWorld } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

let token: string;
beforeAll(async () => {
  token = await platformToken();
});

type World = Awaited<ReturnType<typeof seedWorld>>;
const paymentPath = (w: World) => `/transactions/outlets/${w.outletId}/orders/${w.orderRef}/payments/${w.paymentRef}`;
const paymentParams = (w: World) => ({ outletId: w.outletId, orderRef: w.orderRef, paymentRef: w.paymentRef });
const direct = (w: World, body: unknown, key: string) =>
  invoke(payDirect, {
    method: 'POST',
    path: `${paymentPath(w)}/click-to-pay/direct`,
    pathParameters: paymentParams(w),
    token,
    body,
    headers: { 'Idempotency-Key': key },
  });

/** Runs `work` and returns the one record it added to the table. */
async function recordWrittenBy(work: () => Promise<unknown>): Promise<Record<string, unknown>> {
  const before = new Set((await idempotencyRecords()).map((item) => item.pk));
  await work();
  const added = (await idempotencyRecords()).filter((item) => !before.has(item.pk));
  expect(added).toHaveLength(1);
  return added[0]!;
}

function expectOnlyBookkeeping(record: Record<string, unknown>, key: string) {
  expect(Object.keys(record).sort()).toEqual(['data', 'expiration', 'in_progress_expiration', 'pk', 'status', 'validation']);
  expect(record.status).toBe('COMPLETED');
  expect(record.pk).toMatch(/^idempotency-key#[A-Za-z0-9+/]{43}=$/); // SHA-256 of scope + key
  expect(record.validation).toMatch(/^[A-Za-z0-9+/]{43}=$/); // SHA-256 of the keyed request fingerprint
  expect(record.data).toMatch(/^v1\.[\w-]{16}\.[\w-]+$/); // AES-256-GCM
  const expiration = record.expiration as number;
  expect(Math.abs(expiration - (Date.now() / 1000 + IDEMPOTENCY_WINDOW_SECONDS))).toBeLessThan(30);
  expect(JSON.stringify(record)).not.toContain(key);
}

describe('an Idempotency-Key record', () => {
  it('of a 4.4 PAN payment: no card number, cryptogram or request body; only the sealed response', async () => {
    const world = await seedWorld({}, { directWallet: true });
    const key = randomUUID();
    const card = { primaryAccountNumber: '4111111111111111', panExpirationMonth: 1, panExpirationYear: 30 };
    const body = tokenData({ token: undefined, card });
    let response: Awaited<ReturnType<typeof direct>> | undefined;
    const record = await recordWrittenBy(async () => (response = await direct(world, body, key)));
    expect(response!.body).toMatchObject({ state: 'AUTHORISED', paymentMethod: { panLastFour: '1111' } });
    expectOnlyBookkeeping(record, key);
    const text = JSON.stringify(record);
    for (const secret of ['4111111111111111', '411111', body.dynamicData.dynamicDataValue, body.paymentAccountReference, world.paymentRef]) {
      expect(text).not.toContain(secret);
    }
    // What it holds is the response, for whoever presents the key in the same scope.
    expect(openResponse(deriveSecrets('platform', key), record.data)).toEqual({ status: 200, body: response!.body });
    expect(() => openResponse(deriveSecrets('platform', `${key}x`), record.data)).toThrow();
    expect(() => openResponse(deriveSecrets('tenant:x', key), record.data)).toThrow();
  });

  it('of a 4.9 hosted session: the session token is not stored in clear', async () => {
    const world = await seedWorld();
    const key = randomUUID();
    let created: Awaited<ReturnType<typeof invoke>> | undefined;
    const record = await recordWrittenBy(async () => {
      created = await invoke(createSession, {
        method: 'POST',
        path: `/transactions/outlets/${world.outletId}/orders/${world.orderRef}/hosted-sessions`,
        pathParameters: { outletId: world.outletId, orderRef: world.orderRef },
        token,
        headers: { 'Idempotency-Key': key },
      });
    });
    expect(created!.status).toBe(201);
    expectOnlyBookkeeping(record, key);
    const sessionToken: string = created!.body.sessionToken;
    expect(JSON.stringify(record)).not.toContain(sessionToken);
    expect(JSON.stringify(record)).not.toContain(encodeURIComponent(sessionToken));
  });

  it('that was tampered with is a 500, never someone else’s response', async () => {
    const world = await seedWorld({}, { directWallet: true });
    const key = randomUUID();
    const record = await recordWrittenBy(() => direct(world, tokenData(), key));
    const [version, iv, sealed] = String(record.data).split('.');
    const flipped = Buffer.from(sealed!, 'base64url');
    flipped[0]! ^= 1;
    await documentClient.send(
      new UpdateCommand({
        TableName: process.env.IDEMPOTENCY_TABLE,
        Key: { pk: record.pk },
        UpdateExpression: 'SET #data = :data',
        ExpressionAttributeNames: { '#data': 'data' },
        ExpressionAttributeValues: { ':data': [version, iv, flipped.toString('base64url')].join('.') },
      }),
    );
    const replay = await direct(world, tokenData(), key);
    expect(replay.status).toBe(500);
    expect(replay.body.code).toBe('INTERNAL_ERROR');
  });
});

describe('4.10 with an Idempotency-Key', () => {
  it('replays the completed payment', async () => {
    const world = await seedWorld({}, { directWallet: true });
    const awaiting = await direct(world, tokenData({ eci: '07' }), randomUUID());
    expect(awaiting.body.state).toBe('AWAIT_3DS');
    const { cres } = await answerChallenge(awaiting.body.threeDs, '1234');
    const key = randomUUID();
    const complete = () =>
      invoke(complete3ds, {
        method: 'POST',
        path: `${paymentPath(world)}/3ds`,
        pathParameters: paymentParams(world),
        token,
        body: { cres },
        headers: { 'Idempotency-Key': key },
      });
    const done = await complete();
    expect(done.body.state).toBe('AUTHORISED');
    const again = await complete();
    expect(again.body).toEqual(done.body);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
  });
});
