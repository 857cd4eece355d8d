import { unmarshall } from '@aws-sdk/util-dynamodb';
import { DependencyUnavailableError, InternalError } from '../../core/errors.js';
import { recordDependencyFailure } from '../metrics/dependency-failures.js';

/**
 * Thrown by repositories when a conditional write loses; use cases map it to a domain error.
 * `existing` is the item as it was when the condition failed, when the engine returned it
 * (ReturnValuesOnConditionCheckFailure: ALL_OLD); callers fall back to a read without it
 * (dynalite ignores the parameter; an absent item returns nothing either).
 */
export class ConditionFailed extends Error {
  readonly existing: Record<string, unknown> | undefined;
  constructor(cause?: unknown, existing?: Record<string, unknown>) {
    super('conditional write failed', { cause });
    this.name = 'ConditionFailed';
    this.existing = existing;
  }
}

/** Our own mistakes (bad request shape, missing table, IAM): a 500, never a retry hint. */
const MISCONFIGURATION = new Set(['ValidationException', 'ResourceNotFoundException', 'AccessDeniedException', 'UnrecognizedClientException']);

/**
 * Runs one DynamoDB call and maps its failures: a lost condition becomes ConditionFailed
 * (with the old item when returned), misconfiguration a generic 500, everything else
 * (throttling, 5xx, network, a timeout or the invocation's deadline) a 503 the client may
 * retry. Raw SDK text only ever travels in `cause`.
 */
export async function dynamo<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') throw new ConditionFailed(error, oldItem(error));
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

function oldItem(error: unknown): Record<string, unknown> | undefined {
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

/** Strips the storage keys from an item. */
export function withoutKeys<T>(item: Record<string, unknown>): T {
  const { pk: _pk, sk: _sk, ...rest } = item;
  return rest as T;
}
