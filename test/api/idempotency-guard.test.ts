/**
 * IdempotencyGuard against a scripted persistence layer: the outcomes that DynamoDB only
 * produces in narrow races (a record vanishing between the failed put and the read), the
 * non-2xx results a use case may return without throwing, and the in-progress expiry taken
 * from the Lambda context.
 */
import { randomUUID } from 'node:crypto';
import { IdempotencyItemAlreadyExistsError, IdempotencyItemNotFoundError } from '@aws-lambda-powertools/idempotency';
import { BasePersistenceLayer, type IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';
import { describe, expect, it, vi } from 'vitest';
import type { Principal } from '../../lib/core/auth/principal.js';
import { IdempotencyKeyInUseError, NotFoundError } from '../../lib/core/errors.js';
import { IdempotencyGuard, idempotencyScope } from '../../lib/http/idempotency.js';
import { logger } from '../../lib/core/ports/logger.js';
import type { ApiResult } from '../../lib/http/types.js';
import { dynamoFailure } from '../../lib/adapters/dynamodb/dynamo.js';
import { errorHeaders } from '../../lib/http/error-status.js';

/** An in-memory persistence layer that can be told to misbehave. */
class ScriptedLayer extends BasePersistenceLayer {
  readonly records = new Map<string, IdempotencyRecord>();
  readonly puts: IdempotencyRecord[] = [];
  vanishOnRead = false;

  protected async _putRecord(record: IdempotencyRecord): Promise<void> {
    this.puts.push(record);
    const existing = this.records.get(record.idempotencyKey);
    if (existing && !existing.isExpired()) throw new IdempotencyItemAlreadyExistsError('exists');
    this.records.set(record.idempotencyKey, record);
  }
  protected async _getRecord(key: string): Promise<IdempotencyRecord> {
    const record = this.records.get(key);
    if (!record || this.vanishOnRead) throw new IdempotencyItemNotFoundError();
    return record;
  }
  protected async _updateRecord(record: IdempotencyRecord): Promise<void> {
    this.records.set(record.idempotencyKey, record);
  }
  protected async _deleteRecord(record: IdempotencyRecord): Promise<void> {
    this.records.delete(record.idempotencyKey);
  }
}

const platform: Principal = { kind: 'platform', subject: 'test', permissions: new Set() };
const callWith = (key: string, remainingMs = 7_000) => ({
  event: { headers: { 'Idempotency-Key': key }, rawPath: '/transactions/outlets/o-1/orders', requestContext: { http: { method: 'POST' } } } as never,
  context: { getRemainingTimeInMillis: () => remainingMs } as never,
  principal: platform,
  rawBody: '{"a":1}',
  logger,
});

describe('IdempotencyGuard', () => {
  it('a non-2xx result the use case returns (not throws) is answered but not stored', async () => {
    const layer = new ScriptedLayer();
    const guard = new IdempotencyGuard(layer, dynamoFailure);
    const key = randomUUID();
    const work = vi.fn(async (): Promise<ApiResult> => ({ status: 202, body: { n: 1 } }));
    work.mockResolvedValueOnce({ status: 302, body: { moved: true } });
    expect(await guard.run(callWith(key), work)).toEqual({ status: 302, body: { moved: true } });
    expect(layer.records.size).toBe(0);
    expect(await guard.run(callWith(key), work)).toEqual({ status: 202, body: { n: 1 } });
    expect(layer.records.size).toBe(1);
    expect(await guard.run(callWith(key), work)).toMatchObject({ status: 202, headers: { 'Idempotent-Replayed': 'true' } });
    expect(work).toHaveBeenCalledTimes(2);
  });

  it('a record that vanished between the failed put and the read (the other request just failed) → 409 IN_USE', async () => {
    const layer = new ScriptedLayer();
    const guard = new IdempotencyGuard(layer, dynamoFailure);
    const key = randomUUID();
    await guard.run(callWith(key), async () => ({ status: 201, body: {} }));
    layer.vanishOnRead = true;
    const work = vi.fn(async () => ({ status: 201, body: {} }));
    const error = await guard.run(callWith(key), work).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdempotencyKeyInUseError);
    expect(errorHeaders(error as IdempotencyKeyInUseError)['Retry-After']).toBe('1'); // gone: retry now
    expect(work).not.toHaveBeenCalled();
  });

  it('409 IN_USE says in Retry-After when the holder’s in-progress record expires (SPEC 4.13)', async () => {
    const layer = new ScriptedLayer();
    const guard = new IdempotencyGuard(layer, dynamoFailure);
    const key = randomUUID();
    // The holder: an invocation that had 42 s left when it took the key, and is still running.
    let release!: () => void;
    const holding = guard.run(callWith(key, 42_000), () => new Promise<ApiResult>((resolve) => (release = () => resolve({ status: 201, body: {} }))));
    await vi.waitFor(() => expect(layer.records.size).toBe(1));
    const error = await guard.run(callWith(key, 3_000), async () => ({ status: 201, body: {} })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdempotencyKeyInUseError);
    expect(['41', '42']).toContain(errorHeaders(error as IdempotencyKeyInUseError)['Retry-After']);
    release();
    await holding;
  });

  it('409 IN_USE whose record cannot be read again: the caller’s own remaining time bounds the wait', async () => {
    const layer = new ScriptedLayer();
    const guard = new IdempotencyGuard(layer, dynamoFailure);
    const key = randomUUID();
    let release!: () => void;
    const holding = guard.run(callWith(key, 42_000), () => new Promise<ApiResult>((resolve) => (release = () => resolve({ status: 201, body: {} }))));
    await vi.waitFor(() => expect(layer.records.size).toBe(1));
    const read = vi.spyOn(layer, 'getRecord');
    read.mockImplementationOnce(BasePersistenceLayer.prototype.getRecord.bind(layer)); // Powertools' own read
    read.mockRejectedValueOnce(new Error('throttled')); // ours
    const error = await guard.run(callWith(key, 7_000), async () => ({ status: 201, body: {} })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdempotencyKeyInUseError);
    expect(errorHeaders(error as IdempotencyKeyInUseError)['Retry-After']).toBe('7');
    release();
    await holding;
  });

  it('the in-progress record expires with the Lambda’s remaining time; the record with 24 h', async () => {
    const layer = new ScriptedLayer();
    await new IdempotencyGuard(layer, dynamoFailure).run(callWith(randomUUID(), 7_000), async () => ({ status: 200, body: {} }));
    const [put] = layer.puts;
    expect(put!.inProgressExpiryTimestamp! - Date.now()).toBeGreaterThan(6_000);
    expect(put!.inProgressExpiryTimestamp! - Date.now()).toBeLessThanOrEqual(7_000);
    expect(put!.expiryTimestamp! - Date.now() / 1000).toBeCloseTo(86_400, -1);
  });

  it('the use case’s own error comes out unchanged and releases the key', async () => {
    const layer = new ScriptedLayer();
    const guard = new IdempotencyGuard(layer, dynamoFailure);
    const error = new NotFoundError();
    await expect(guard.run(callWith(randomUUID()), async () => Promise.reject(error))).rejects.toBe(error);
    expect(layer.records.size).toBe(0);
  });
});

describe('idempotencyScope', () => {
  it('is the platform, the tenant, or a hosted session’s own order', () => {
    expect(idempotencyScope(platform)).toBe('platform');
    expect(idempotencyScope({ kind: 'tenant', subject: 's', tenantRef: 't-1', merchantRef: 'm-1', outletIds: undefined, permissions: new Set() })).toBe(
      'tenant:t-1',
    );
    expect(
      idempotencyScope({ kind: 'session', tenantRef: 't-1', merchantRef: 'm-1', outletId: 'o-1', orderRef: 'r-1', expiresAt: 0, permissions: new Set() }),
    ).toBe('session:r-1');
  });
});
