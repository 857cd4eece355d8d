/**
 * The strict cold-start floor (`npm run bench:coldstart`, issue 18): exactly middy, the DynamoDB
 * document client, the KMS client, jose and zod, with the two clients at module scope and nothing
 * else there — no JWKS set, no schema (bench/coldstart-floor.ts builds those at module scope as a
 * real handler does). jose and zod are used by the handler, so that the bundler keeps what a
 * handler keeps of them. Bundled by bench/coldstart.ts exactly as the other floor.
 */
import middy from '@middy/core';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DecryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { compactVerify, createRemoteJWKSet, importJWK, jwtVerify } from 'jose';
import * as z from 'zod';

const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({ region: process.env.AWS_REGION }), {
  marshallOptions: { removeUndefinedValues: true },
});
const kmsClient = new KMSClient({ region: process.env.AWS_REGION });

interface FloorEvent {
  headers: Record<string, string>;
  body: string;
  networkKey: Parameters<typeof importJWK>[0];
}

export const handler = middy(async (event: FloorEvent) => {
  const body = z.object({ checkoutResponse: z.string().min(1), amount: z.object({ currencyCode: z.string().length(3), value: z.number().int() }) });
  const input = body.parse(JSON.parse(event.body));
  await jwtVerify(event.headers.authorization!, createRemoteJWKSet(new URL(process.env.AUTH_JWKS_URL ?? 'https://auth.example.invalid/jwks')));
  const { Item } = await documentClient.send(new GetCommand({ TableName: process.env.ORDERS_TABLE, Key: { pk: input.amount.currencyCode } }));
  const { payload } = await compactVerify(input.checkoutResponse, await importJWK(event.networkKey, 'RS256'));
  const { Plaintext } = await kmsClient.send(new DecryptCommand({ KeyId: 'alias/floor', CiphertextBlob: payload }));
  await documentClient.send(new PutCommand({ TableName: process.env.ORDERS_TABLE, Item: { ...Item, key: Plaintext?.length } }));
  return { statusCode: 200, body: '{}' };
});
