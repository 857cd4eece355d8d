import { createDecipheriv, createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { DecryptCommand } from '@aws-sdk/client-kms';
import { BatchGetCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { compactVerify, importJWK, type JWK } from 'jose';
import { documentClient, kmsClient } from '../lib/composition/aws.js';
import { payloadKeyVault } from '../lib/composition/keys.js';
import type { PreparedPayment } from './fixtures.js';

/**
 * The floors of 4.3, done bare (no middleware, validation, mapping or logging):
 * - `minimalFloorPayment`: what any implementation must do, one call after the other (the
 *   issue's list: session GetItem, order and payment read, replay-claim PutItem, KMS Decrypt,
 *   JWS verify, AES decrypt, one lease write, one final write) plus the acquirer call, which
 *   no implementation can skip (here the sandbox acquirer's DynamoDB write); the final write
 *   carries the payment's webhook event, as SPEC 4.15 requires of that very write.
 * - `floorPayment`: the handler's own calls, so that handler/floor is overhead only. They are
 *   the minimal floor's but for the first: the handler reads a hosted session, the order item
 *   and the payment in one BatchGetItem (lib/http/api-handler.ts `readAhead`) where the minimal
 *   floor makes a GetItem and then a Query. The merchant's standing is cached in the warm
 *   function, and the replay claim precedes the KMS unwrap in both.
 */
export interface Floor {
  networkKey: Awaited<ReturnType<typeof importJWK>>;
  kmsKeyArn: string;
  tables: { config: string; orders: string; sessions: string; replay: string; sandbox: string };
}

export async function prepareFloor(): Promise<Floor> {
  const url = process.env
    .NETWORK_JWKS_URLS!.split(',')
    .find((entry) => entry.startsWith('sandbox='))!
    .slice('sandbox='.length);
  const { keys } = JSON.parse(await readFile(new URL(url), 'utf8')) as { keys: JWK[] };
  const networkKey = await importJWK(keys.find((key) => key.alg === 'RS256')!, 'RS256');
  const [current] = await payloadKeyVault.publicKeys();
  return {
    networkKey,
    kmsKeyArn: current!.kmsKeyArn,
    tables: {
      config: process.env.CONFIG_TABLE!,
      orders: process.env.ORDERS_TABLE!,
      sessions: process.env.SESSIONS_TABLE!,
      replay: process.env.REPLAY_TABLE!,
      sandbox: process.env.SANDBOX_TABLE!,
    },
  };
}

export async function minimalFloorPayment(floor: Floor, p: PreparedPayment): Promise<void> {
  const { tables } = floor;
  const hash = createHash('sha256').update(p.sessionToken).digest('hex');
  await documentClient.send(new GetCommand({ TableName: tables.sessions, Key: { pk: hash } }));
  await documentClient.send(
    new QueryCommand({
      TableName: tables.orders,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `ORDER#${p.orderRef}` },
      ConsistentRead: true,
    }),
  );
  await claimUnwrapAndSettle(floor, p);
}

/** Steps 2–9 once the session, order and payment are read: the same in both floors. */
async function claimUnwrapAndSettle(floor: Floor, p: PreparedPayment): Promise<void> {
  const { tables } = floor;
  const { payload } = await compactVerify(String(p.body.checkoutResponse.checkoutResponse), floor.networkKey);
  const claims = JSON.parse(new TextDecoder().decode(payload)) as { srcCorrelationId: string; encryptedPayload: string };
  await documentClient.send(
    new PutCommand({
      TableName: tables.replay,
      Item: { pk: claims.srcCorrelationId, paymentRef: p.paymentRef, expiresAt: 0 },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  const [header, encryptedKey, iv, ciphertext, tag] = claims.encryptedPayload.split('.') as [string, string, string, string, string];
  const { Plaintext } = await kmsClient.send(
    new DecryptCommand({ KeyId: floor.kmsKeyArn, CiphertextBlob: Buffer.from(encryptedKey, 'base64url'), EncryptionAlgorithm: 'RSAES_OAEP_SHA_256' }),
  );
  const decipher = createDecipheriv('aes-256-gcm', Plaintext!, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(header, 'ascii'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  JSON.parse(Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8'));
  const key = { pk: `ORDER#${p.orderRef}`, sk: `PAYMENT#${p.paymentRef}` };
  await documentClient.send(
    new UpdateCommand({
      TableName: tables.orders,
      Key: key,
      UpdateExpression: 'SET #s = :p',
      ConditionExpression: '#s = :started',
      ExpressionAttributeNames: { '#s': 'state' },
      ExpressionAttributeValues: { ':p': 'PROCESSING', ':started': 'STARTED' },
    }),
  );
  // The sandbox acquirer keeps its record in DynamoDB, in the sandbox table (SPEC §5): one write, as in the handler.
  await documentClient.send(
    new UpdateCommand({
      TableName: tables.sandbox,
      Key: { pk: `SANDBOX_ACQUIRER#${p.paymentRef}` },
      UpdateExpression: 'SET outcome = if_not_exists(outcome, :o)',
      ExpressionAttributeValues: { ':o': { approved: true } },
      ReturnValues: 'ALL_NEW',
    }),
  );
  // The final write also records the payment's webhook event (SPEC 4.15: in the same write that
  // changes the payment), as any implementation of the current contract must: the same one write.
  const event = {
    id: `evt_${p.paymentRef}`,
    type: 'payment.authorised',
    createdAt: new Date().toISOString(),
    merchantRef: 'bench-merchant',
    body: JSON.stringify({ data: p.body, at: Date.now() }).slice(0, 1500),
  };
  await documentClient.send(
    new UpdateCommand({
      TableName: tables.orders,
      Key: key,
      UpdateExpression: 'SET #s = :a, outbox = list_append(if_not_exists(outbox, :none), :events), dueShard = :shard, dueAt = :now',
      ConditionExpression: '#s = :p',
      ExpressionAttributeNames: { '#s': 'state' },
      ExpressionAttributeValues: { ':a': 'AUTHORISED', ':p': 'PROCESSING', ':none': [], ':events': [event], ':shard': 'DUE#0', ':now': Date.now() },
    }),
  );
}

/** The handler's own calls: one BatchGetItem for the session, the order and the payment, then the same. */
export async function floorPayment(floor: Floor, p: PreparedPayment): Promise<void> {
  const { tables } = floor;
  const hash = createHash('sha256').update(p.sessionToken).digest('hex');
  const pk = `ORDER#${p.orderRef}`;
  await documentClient.send(
    new BatchGetCommand({
      RequestItems: {
        [tables.sessions]: { Keys: [{ pk: hash }], ConsistentRead: true },
        [tables.orders]: {
          Keys: [
            { pk, sk: 'ORDER' },
            { pk, sk: `PAYMENT#${p.paymentRef}` },
          ],
          ConsistentRead: true,
        },
      },
    }),
  );
  await claimUnwrapAndSettle(floor, p);
}
