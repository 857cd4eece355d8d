import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { remainingMs } from '../../core/deadline.js';
import { DependencyUnavailableError } from '../../core/errors.js';
import { recordDependencyFailure } from '../metrics/dependency-failures.js';
import { dynamo } from './dynamo.js';

/** How often keys DynamoDB left unprocessed are asked again, and the first pause before that. */
export const BATCH_GET = { attempts: 3, firstBackoffMs: 25 } as const;

export type BatchGetRequest = Record<string, { Keys: Record<string, unknown>[]; ConsistentRead?: boolean }>;
export type BatchGetItems = Record<string, Record<string, unknown>[]>;

/**
 * One BatchGetItem over several tables. DynamoDB may answer part of it and return the rest as
 * `UnprocessedKeys` (a throttled partition, a large answer): those are asked again with backoff,
 * up to BATCH_GET.attempts calls in all and never past the invocation's deadline; then the read
 * is a 503 like any throttled one, never an answer that silently lacks an item. Answers the
 * items found, per table (an absent item is simply not there).
 */
export async function batchGet(client: Pick<DynamoDBDocumentClient, 'send'>, request: BatchGetRequest): Promise<BatchGetItems> {
  const found: BatchGetItems = Object.fromEntries(Object.keys(request).map((table) => [table, []]));
  let pending: BatchGetRequest = request;
  let backoff: number = BATCH_GET.firstBackoffMs;
  for (let attempt = 1; ; attempt++) {
    const answer = await dynamo(() => client.send(new BatchGetCommand({ RequestItems: pending })));
    for (const [table, items] of Object.entries(answer.Responses ?? {})) found[table]?.push(...items);
    const unprocessed = answer.UnprocessedKeys as BatchGetRequest | undefined;
    if (!unprocessed || Object.keys(unprocessed).length === 0) return found;
    if (attempt >= BATCH_GET.attempts || remainingMs() < backoff) {
      const cause = Object.assign(new Error(`BatchGetItem left keys unprocessed after ${attempt} calls`), { name: 'ProvisionedThroughputExceededException' });
      recordDependencyFailure('dynamodb', cause);
      throw new DependencyUnavailableError(undefined, { cause });
    }
    await new Promise((resolve) => setTimeout(resolve, backoff));
    backoff *= 2;
    pending = unprocessed;
  }
}
