import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../lib/composition/aws.js';

/** An orders-table item exactly as stored (strongly consistent), for tests that inspect it. */
export async function storedItem(key: { pk: string; sk: string }, table = process.env.ORDERS_TABLE!): Promise<Record<string, unknown> | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }));
  return Item;
}
