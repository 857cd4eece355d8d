import type { DynamoDBRecord } from 'aws-lambda';
import type { Logger } from '../ports/logger.js';
import type { ItemKey } from '../../adapters/dynamodb/event-repository.js';
import { DELIVERY_RESERVE_MS, processDue, sweep, type DispatchDeps } from './dispatch.js';

/**
 * The stream's fast path: keys of items that became due now (an outbox filled, a redelivery).
 * Items rescheduled for later are left to the sweep; old images and removals carry no work.
 */
export function dueFromStream(records: DynamoDBRecord[], now: number): ItemKey[] {
  const keys: ItemKey[] = [];
  for (const record of records) {
    const image = record.dynamodb?.NewImage;
    const dueAt = Number(image?.dueAt?.N);
    if (!image || !Number.isFinite(dueAt) || dueAt > now + 1_000) continue;
    const pk = image.pk?.S;
    const sk = image.sk?.S;
    if (pk && sk) keys.push({ pk, sk });
  }
  return keys;
}

/** Processes the stream's keys, or sweeps the due index when there are none (the schedule). */
export async function runDelivery(deps: DispatchDeps, logger: Logger, keys: ItemKey[] | undefined, remainingMs: number): Promise<number> {
  const stopAt = deps.now() + Math.max(0, remainingMs - DELIVERY_RESERVE_MS);
  if (!keys) return sweep(deps, logger, { perShard: 25, concurrency: 8, stopAt });
  let done = 0;
  await Promise.all(
    keys.map(async (key) => {
      try {
        await processDue(deps, key, logger);
        done++;
      } catch (error) {
        logger.warn('stream item not processed; the sweep will', { pk: key.pk, sk: key.sk, error });
      }
    }),
  );
  return done;
}
