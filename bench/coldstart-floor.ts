/**
 * The cold-start floor (`npm run bench:coldstart`): a Lambda module that imports only what any
 * 4.3 handler needs — middy, the DynamoDB, document and KMS clients, jose, zod — builds its
 * clients at module scope as a real handler does, and nothing else. Bundled by bench/coldstart.ts
 * with esbuild (--bundle --minify --format=esm --platform=node). zod is imported the way its
 * documentation does (`import * as z`), which lets the bundler drop what is not used.
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
const accessKeys = createRemoteJWKSet(new URL(process.env.AUTH_JWKS_URL ?? 'https://auth.example.invalid/jwks'));
const body = z.object({ checkoutResponse: z.string().min(1), amount: z.object({ currencyCode: z.string().length(3), value: z.number().int() }) });

interface FloorEvent {
  headers: Record<string, string>;
  body: string;
  networkKey: Parameters<typeof importJWK>[0];
}

export const handler = middy(async (event: FloorEvent) => {
  const input = body.parse(JSON.parse(event.body));
  await jwtVerify(event.headers.authorization!, accessKeys);
  const { Item } = await documentClient.send(new GetCommand({ TableName: process.env.ORDERS_TABLE, Key: { pk: input.amount.currencyCode } }));
  const { payload } = await compactVerify(input.checkoutResponse, await importJWK(event.networkKey, 'RS256'));
  const { Plaintext } = await kmsClient.send(new DecryptCommand({ KeyId: 'alias/floor', CiphertextBlob: payload }));
  await documentClient.send(new PutCommand({ TableName: process.env.ORDERS_TABLE, Item: { ...Item, key: Plaintext?.length } }));
  return { statusCode: 200, body: '{}' };
});
