import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Payment, PaymentState } from '../domain/payment.js';
import { dynamo, nowIso } from './dynamo.js';
import { orderPk, paymentSk, stripItem } from './order-repository.js';

export type LeaseOrigin = 'STARTED' | 'AWAIT_3DS';
export type FinalPatch = Partial<Pick<Payment, 'paymentMethod' | 'eci' | 'authorization' | 'threeDs' | 'failure'>> & {
  state: Exclude<PaymentState, 'PROCESSING' | 'STARTED'>;
};

/** What a payment waiting for 3DS keeps: the JWE (encrypted to our KMS key), never plaintext. */
export interface PendingThreeDs {
  jwe: string;
  source: 'CLICK_TO_PAY' | 'DIRECT_WALLET';
  transactionId: string;
  /** Set by the (sandbox) ACS once the challenge is answered: the RReq of 3DS 2. */
  result?: { transStatus: 'Y' | 'N'; eci?: string; at: string };
  environment: string;
  /** Epoch seconds; the TTL attribute. */
  expiresAt: number;
}

/**
 * Payment state transitions (SPEC §3), each a single conditional UpdateItem:
 * STARTED|AWAIT_3DS → PROCESSING (a lease with an expiry) → final, or back on release.
 * A lease whose holder crashed can be taken over once it expires.
 */
export class PaymentRepository {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(orderRef: string, paymentRef: string): Promise<Payment | undefined> {
    const { Item } = await dynamo(() =>
      this.client.send(new GetCommand({ TableName: this.table, Key: key(orderRef, paymentRef), ConsistentRead: true })),
    );
    return Item && Item.kind === 'PAYMENT' ? stripItem<Payment>(Item) : undefined;
  }

  /** Throws ConditionFailed when the payment is neither in `from` nor holding an expired lease from it. */
  async acquireLease(
    payment: Pick<Payment, 'orderRef' | 'paymentRef'>,
    lease: { from: LeaseOrigin; leaseId: string; leaseUntil: number; now: number; checkoutKey?: string; payerIp?: string },
  ): Promise<void> {
    const extra: Record<string, unknown> = {};
    if (lease.checkoutKey) extra.checkoutKey = lease.checkoutKey;
    if (lease.payerIp) extra.payerIp = lease.payerIp;
    const sets = Object.keys(extra).map((name) => `${name} = :${name}`);
    await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(payment.orderRef, payment.paymentRef),
          UpdateExpression: `SET #state = :processing, leaseId = :leaseId, leaseUntil = :until, leaseFrom = :from, version = version + :one, updatedAt = :at${sets.map((s) => `, ${s}`).join('')}`,
          ConditionExpression: '#state = :from OR (#state = :processing AND leaseFrom = :from AND leaseUntil < :now)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':processing': 'PROCESSING',
            ':leaseId': lease.leaseId,
            ':until': lease.leaseUntil,
            ':from': lease.from,
            ':now': lease.now,
            ':one': 1,
            ':at': nowIso(),
            ...Object.fromEntries(Object.entries(extra).map(([name, value]) => [`:${name}`, value])),
          },
        }),
      ),
    );
    // Nothing is read back: the holder already has the payment, and ALL_NEW costs bytes.
  }

  /** The final write; only the lease holder can make it (ConditionFailed otherwise). */
  async finish(payment: Pick<Payment, 'orderRef' | 'paymentRef'>, leaseId: string, patch: FinalPatch): Promise<Payment> {
    const fields = Object.entries(patch).filter(([, value]) => value !== undefined);
    const { Attributes } = await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(payment.orderRef, payment.paymentRef),
          UpdateExpression: `SET ${fields.map(([name]) => `#${name} = :${name}`).join(', ')}, version = version + :one, updatedAt = :at REMOVE leaseId, leaseUntil, leaseFrom`,
          ConditionExpression: '#state = :processing AND leaseId = :leaseId',
          ExpressionAttributeNames: Object.fromEntries(fields.map(([name]) => [`#${name}`, name])),
          ExpressionAttributeValues: {
            ...Object.fromEntries(fields.map(([name, value]) => [`:${name}`, value])),
            ':processing': 'PROCESSING',
            ':leaseId': leaseId,
            ':one': 1,
            ':at': nowIso(),
          },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return stripItem<Payment>(Attributes!);
  }

  /** Gives the lease back (e.g. the authorizer timed out): the payment is retryable again. */
  async release(payment: Pick<Payment, 'orderRef' | 'paymentRef'>, leaseId: string, to: LeaseOrigin): Promise<void> {
    await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(payment.orderRef, payment.paymentRef),
          UpdateExpression: 'SET #state = :to, version = version + :one, updatedAt = :at REMOVE leaseId, leaseUntil, leaseFrom',
          ConditionExpression: '#state = :processing AND leaseId = :leaseId',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':to': to, ':processing': 'PROCESSING', ':leaseId': leaseId, ':one': 1, ':at': nowIso() },
        }),
      ),
    );
  }

  async putPendingThreeDs(orderRef: string, paymentRef: string, pending: PendingThreeDs): Promise<void> {
    await dynamo(() =>
      this.client.send(new PutCommand({ TableName: this.table, Item: { ...pendingKey(orderRef, paymentRef), kind: 'THREE_DS', ...pending } })),
    );
  }

  /** Undefined when absent or expired (TTL deletion is lazy). */
  async getPendingThreeDs(orderRef: string, paymentRef: string, now = Date.now()): Promise<PendingThreeDs | undefined> {
    const { Item } = await dynamo(() =>
      this.client.send(new GetCommand({ TableName: this.table, Key: pendingKey(orderRef, paymentRef), ConsistentRead: true })),
    );
    if (!Item || Item.kind !== 'THREE_DS' || (Item.expiresAt as number) * 1000 <= now) return undefined;
    return stripItem<PendingThreeDs>(Item);
  }

  /** Records the ACS's answer once; ConditionFailed if already answered, expired or unknown. */
  async recordChallengeResult(orderRef: string, paymentRef: string, transactionId: string, result: NonNullable<PendingThreeDs['result']>): Promise<void> {
    await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: pendingKey(orderRef, paymentRef),
          UpdateExpression: 'SET #result = :result',
          ConditionExpression: 'transactionId = :tx AND attribute_not_exists(#result) AND expiresAt > :now',
          ExpressionAttributeNames: { '#result': 'result' },
          ExpressionAttributeValues: { ':result': result, ':tx': transactionId, ':now': Math.floor(Date.now() / 1000) },
        }),
      ),
    );
  }

  async deletePendingThreeDs(orderRef: string, paymentRef: string): Promise<void> {
    await dynamo(() => this.client.send(new DeleteCommand({ TableName: this.table, Key: pendingKey(orderRef, paymentRef) })));
  }
}

const key = (orderRef: string, paymentRef: string) => ({ pk: orderPk(orderRef), sk: paymentSk(paymentRef) });
const pendingKey = (orderRef: string, paymentRef: string) => ({ pk: orderPk(orderRef), sk: `${paymentSk(paymentRef)}#3DS` });

