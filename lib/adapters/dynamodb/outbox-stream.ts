import type { DynamoDBRecord } from 'aws-lambda';
import type { DueItem } from '../../core/ports/outbox-store.js';
import { dueItemOf } from './due-items.js';

/**
 * The stream's fast path: the items that became due now (an outbox filled, a redelivery), as
 * the worker's DueItems. Items rescheduled for later are left to the sweep; old images and
 * removals carry no work.
 */
export function dueFromStream(records: readonly DynamoDBRecord[], now: number): DueItem[] {
  const items: DueItem[] = [];
  for (const record of records) {
    const image = record.dynamodb?.NewImage;
    const dueAt = Number(image?.dueAt?.N);
    if (!image || !Number.isFinite(dueAt) || dueAt > now + 1_000) continue;
    const pk = image.pk?.S;
    const sk = image.sk?.S;
    if (pk && sk) items.push(dueItemOf(pk, sk));
  }
  return items;
}
