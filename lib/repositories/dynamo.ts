import { DependencyUnavailableError, InternalError } from '../errors.js';

/** Thrown by repositories when a conditional write loses; use cases map it to a domain error. */
export class ConditionFailed extends Error {
  constructor(cause?: unknown) {
    super('conditional write failed', { cause });
    this.name = 'ConditionFailed';
  }
}

/** Our own mistakes (bad request shape, missing table, IAM): a 500, never a retry hint. */
const MISCONFIGURATION = new Set(['ValidationException', 'ResourceNotFoundException', 'AccessDeniedException', 'UnrecognizedClientException']);

/**
 * Runs one DynamoDB call and maps its failures: a lost condition becomes ConditionFailed,
 * misconfiguration a generic 500, everything else (throttling, 5xx, network) a 503 the
 * client may retry. Raw SDK text only ever travels in `cause`.
 */
export async function dynamo<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const name = (error as { name?: string }).name ?? '';
    if (name === 'ConditionalCheckFailedException') throw new ConditionFailed(error);
    if (MISCONFIGURATION.has(name)) throw new InternalError(undefined, { cause: error });
    throw new DependencyUnavailableError(undefined, { cause: error });
  }
}

export const nowIso = (): string => new Date().toISOString();
export const epochSeconds = (ms: number = Date.now()): number => Math.floor(ms / 1000);

/** Strips the storage keys from an item. */
export function withoutKeys<T>(item: Record<string, unknown>): T {
  const { pk: _pk, sk: _sk, ...rest } = item;
  return rest as T;
}
