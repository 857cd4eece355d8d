import { StoreConflictError } from '../../core/ports/store-conflict.js';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { DependencyUnavailableError, InternalError } from '../../core/errors.js';
import { recordDependencyFailure } from '../metrics/dependency-failures.js';

/** Our own mistakes (bad request shape, missing table, IAM): a 500, never a retry hint. */
const MISCONFIGURATION = new Set(['ValidationException', 'ResourceNotFoundException', 'AccessDeniedException', 'UnrecognizedClientException']);

/**
 * Runs one DynamoDB call and maps its failures: a lost condition becomes the core's
 * StoreConflictError (with the old item, decoded, when the engine returned it: ALL_OLD;
 * dynalite ignores ReturnValuesOnConditionCheckFailure, so callers read when it is absent), misconfiguration a generic 500, everything else
 * (throttling, 5xx, network, a timeout or the invocation's deadline) a 503 the client may
 * retry. Raw SDK text only ever travels in `cause`.
 */
export async function dynamo<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') {
      const old = oldItem(error);
      throw new StoreConflictError(old && stripItem(old), { cause: error });
    }
    throw dynamoFailure(error);
  }
}

/**
 * A failed DynamoDB call as the client sees it: misconfiguration a generic 500, anything else
 * a 503 with Retry-After. Also used for the calls Powertools makes (lib/http/idempotency.ts).
 */
export function dynamoFailure(error: unknown): InternalError | DependencyUnavailableError {
  const name = (error as { name?: string } | undefined)?.name ?? '';
  if (MISCONFIGURATION.has(name)) return new InternalError(undefined, { cause: error });
  recordDependencyFailure('dynamodb', error);
  return new DependencyUnavailableError(undefined, { cause: error });
}

/** The item a failed condition saw, as the engine returned it (still with its keys), if it did. */
export function oldItem(error: unknown): Record<string, unknown> | undefined {
  const item = (error as { Item?: Record<string, unknown> }).Item;
  if (!item || typeof item !== 'object' || Object.keys(item).length === 0) return undefined;
  try {
    return unmarshall(item as Parameters<typeof unmarshall>[0]);
  } catch {
    return undefined;
  }
}

export const nowIso = (): string => new Date().toISOString();
export const epochSeconds = (ms: number = Date.now()): number => Math.floor(ms / 1000);

/** The domain object of an item: storage keys, the item kind and the outbox bookkeeping removed. */
export function stripItem<T>(item: Record<string, unknown>): T {
  const { kind: _kind, outbox: _outbox, dueShard: _shard, dueAt: _due, ...rest } = withoutKeys<Record<string, unknown>>(item);
  return rest as T;
}

/** Strips the storage keys from an item. */
export function withoutKeys<T>(item: Record<string, unknown>): T {
  const { pk: _pk, sk: _sk, ...rest } = item;
  return rest as T;
}
