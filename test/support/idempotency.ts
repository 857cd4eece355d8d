import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../lib/composition/aws.js';

/** Every Idempotency-Key record of this test file's table, as stored. */
export async function idempotencyRecords(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(new ScanCommand({ TableName: process.env.IDEMPOTENCY_TABLE, ConsistentRead: true, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

export async function countIdempotencyRecords(): Promise<number> {
  return (await idempotencyRecords()).length;
}
