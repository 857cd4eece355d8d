import { StoreConflictError } from '../../core/ports/store-conflict.js';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { MaskedPaymentMethod, Payment, PaymentState, SrcCheckoutReference } from '../../core/domain/payment.js';
import { dynamo, nowIso } from './dynamo.js';
import { appendToOutbox, type OutboxEntry } from './outbox.js';
import { orderPk, paymentSk, stripItem } from './order-repository.js';

export type LeaseOrigin = 'STARTED' | 'AWAIT_3DS';

export interface LeaseRequest {
  from: LeaseOrigin;
  leaseId: string;
  /** Epoch ms. */
  leaseUntil: number;
  now: number;
  /** Who may take an expired lease over: the same checkout response, card or 3DS transaction. */
  credential: string;
  /**
   * Which transition is asked for: from `from` (default), or over an expired lease from `from`
   * held for the same credential. One condition each, not both OR-ed: the caller knows from
   * the item it read which one applies (lib/core/payments/lease.ts asks for the other if that changed).
   */
  takeover?: boolean;
  /** What the attempt pays with, masked: recorded if another attempt must settle this lease. */
  masked?: MaskedPaymentMethod;
  /** The checkout's SRC ids: kept from the lease on, so whoever settles it can confirm to the network. */
  srcCheckout?: SrcCheckoutReference;
  payerIp?: string;
}

export interface LeaseTaken {
  /** The lease replaced an expired or parked one: its holder may have reached the acquirer. */
  takeover: boolean;
  /** Epoch ms: an earlier authorization may still be in flight to the acquirer until then. */
  parkedUntil?: number;
  /**
   * The payment as this lease left it, when known (the old item with the lease's changes): only
   * the holder changes a leased payment, so the final write knows what it leaves without asking
   * DynamoDB to send the whole item back (`finish`).
   */
  leased?: Payment;
}

/** What only a lease holds; the final write and a release remove them. */
const LEASE_FIELDS = ['leaseId', 'leaseUntil', 'leaseFrom', 'leaseCredential', 'leaseMasked', 'parkedUntil'] as const;
export type FinalPatch = Partial<
  Pick<Payment, 'paymentMethod' | 'srcCheckout' | 'eci' | 'authorization' | 'threeDs' | 'failure' | 'capturedAmount' | 'refundedAmount' | 'capturable' | 'refundable' | 'operations'>
> & {
  state: Exclude<PaymentState, 'PROCESSING' | 'STARTED'>;
};

/** What a payment waiting for 3DS keeps: the JWE (encrypted to our KMS key), never plaintext. */
export interface PendingThreeDs {
  jwe: string;
  source: 'CLICK_TO_PAY' | 'DIRECT_WALLET';
  /** threeDSServerTransID and the ACS's acsTransID: a cres must name both. */
  transactionId: string;
  acsTransactionId: string;
  /** Which 3DS server started the challenge (the merchant's environment then). */
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

  /**
   * Takes the lease: from `from`, or (`takeover`) over an expired lease from `from` held for the
   * same credential (a takeover with another card or checkout response is refused). Throws
   * StoreConflictError, carrying the item as it was when the engine returns it. Answers what the
   * lease replaced, so the caller knows whether an earlier attempt may have reached the acquirer.
   */
  async acquireLease(payment: Pick<Payment, 'orderRef' | 'paymentRef'>, lease: LeaseRequest): Promise<LeaseTaken> {
    const extra: Record<string, unknown> = { leaseCredential: lease.credential };
    if (lease.masked) extra.leaseMasked = lease.masked;
    if (lease.payerIp) extra.payerIp = lease.payerIp;
    if (lease.srcCheckout) extra.srcCheckout = lease.srcCheckout;
    const sets = Object.keys(extra).map((name) => `${name} = :${name}`);
    const at = nowIso();
    const { Attributes } = await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(payment.orderRef, payment.paymentRef),
          UpdateExpression: `SET #state = :processing, leaseId = :leaseId, leaseUntil = :until, leaseFrom = :from, version = version + :one, updatedAt = :at, ${sets.join(', ')}`,
          ConditionExpression: lease.takeover ? TAKEOVER_CONDITION : '#state = :from',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':processing': 'PROCESSING',
            ':leaseId': lease.leaseId,
            ':until': lease.leaseUntil,
            ':from': lease.from,
            ...(lease.takeover ? { ':now': lease.now } : {}),
            ':one': 1,
            ':at': at,
            ...Object.fromEntries(Object.entries(extra).map(([name, value]) => [`:${name}`, value])),
          },
          // The old item is small; it says whether this was a takeover without another read.
          ReturnValues: 'ALL_OLD',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    );
    const old = Attributes ?? {};
    const taken = { takeover: old.state === 'PROCESSING', ...(typeof old.parkedUntil === 'number' ? { parkedUntil: old.parkedUntil } : {}) };
    if (old.kind !== 'PAYMENT' || typeof old.version !== 'number') return taken; // an engine that sent nothing back
    const leased: Payment = { ...stripItem<Payment>(old), state: 'PROCESSING', leaseId: lease.leaseId, leaseUntil: lease.leaseUntil, leaseFrom: lease.from, version: old.version + 1, updatedAt: at, ...(extra as Partial<Payment>) };
    return { ...taken, leased };
  }

  /**
   * The final write; only the lease holder can make it (StoreConflictError otherwise, with the
   * item as it was). `settledBy` records which lease wrote it, so a retry of a write whose
   * answer was lost recognises its own result.
   */
  async finish(
    payment: Pick<Payment, 'orderRef' | 'paymentRef'>,
    leaseId: string,
    patch: FinalPatch,
    credential: string | undefined,
    events: readonly OutboxEntry[],
    now: number,
    /** What this write leaves (`settledFrom` the item as our lease left it): then nothing is sent back. */
    settled?: Payment,
  ): Promise<Payment> {
    const fields = Object.entries(patch).filter(([, value]) => value !== undefined);
    const k = key(payment.orderRef, payment.paymentRef);
    const outbox = appendToOutbox(k.pk, events, now);
    // Short placeholders (#p0 = :p0, …): the expression is parsed on every write, and the
    // patch's names are in ExpressionAttributeNames for whoever reads the request.
    const sets = [
      ...fields.map((_, index) => `#p${index} = :p${index}`),
      'version = version + :one',
      'updatedAt = :at',
      'settledBy = :leaseId',
      ...(credential ? ['settledCredential = :credential'] : []),
      ...outbox.set,
    ];
    const { Attributes } = await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: k,
          UpdateExpression: `SET ${sets.join(', ')} REMOVE ${LEASE_FIELDS.join(', ')}`,
          ConditionExpression: '#state = :processing AND leaseId = :leaseId',
          ExpressionAttributeNames: { '#state': 'state', ...Object.fromEntries(fields.map(([name], index) => [`#p${index}`, name])) },
          ExpressionAttributeValues: {
            ...Object.fromEntries(fields.map(([, value], index) => [`:p${index}`, value])),
            ':processing': 'PROCESSING',
            ':leaseId': leaseId,
            ':one': 1,
            ':at': new Date(now).toISOString(),
            ...(credential ? { ':credential': credential } : {}),
            ...outbox.values,
          },
          // The condition (our lease) means nobody else changed it since the lease: what the
          // write leaves is known to the caller, so the engine need not send the whole item back.
          ReturnValues: settled ? 'NONE' : 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    );
    return settled ?? stripItem<Payment>(Attributes!);
  }

  /**
   * Gives the lease back: the payment is retryable again, by any credential. Only for
   * failures that cannot have reached the acquirer.
   */
  async release(payment: Pick<Payment, 'orderRef' | 'paymentRef'>, leaseId: string, to: LeaseOrigin): Promise<void> {
    await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(payment.orderRef, payment.paymentRef),
          UpdateExpression: `SET #state = :to, version = version + :one, updatedAt = :at REMOVE ${LEASE_FIELDS.join(', ')}`,
          ConditionExpression: '#state = :processing AND leaseId = :leaseId',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':to': to, ':processing': 'PROCESSING', ':leaseId': leaseId, ':one': 1, ':at': nowIso() },
        }),
      ),
    );
  }

  /**
   * Parks the lease after the acquirer may have been reached (a timeout, a lost answer): the
   * holder leaves, the lease expires now so the same credential can come back at once and
   * ask the acquirer's `lookup`, and no new authorization is sent before `parkedUntil`, when
   * a request still in flight can no longer land.
   */
  async park(payment: Pick<Payment, 'orderRef' | 'paymentRef'>, leaseId: string, now: number, parkedUntil: number): Promise<void> {
    await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(payment.orderRef, payment.paymentRef),
          UpdateExpression: 'SET leaseUntil = :now, parkedUntil = :parked, version = version + :one, updatedAt = :at',
          ConditionExpression: '#state = :processing AND leaseId = :leaseId',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':now': now, ':parked': parkedUntil, ':processing': 'PROCESSING', ':leaseId': leaseId, ':one': 1, ':at': nowIso() },
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

  async deletePendingThreeDs(orderRef: string, paymentRef: string): Promise<void> {
    await dynamo(() => this.client.send(new DeleteCommand({ TableName: this.table, Key: pendingKey(orderRef, paymentRef) })));
  }
}

/** The final write's result, from the item as the lease left it: its SETs applied, the lease's fields removed. */
export function settledFrom(leased: Payment, patch: FinalPatch, written: { version: number; updatedAt: string; settledBy: string; credential: string | undefined }): Payment {
  const fields = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
  const after: Record<string, unknown> = { ...leased, ...fields, version: written.version, updatedAt: written.updatedAt, settledBy: written.settledBy };
  if (written.credential) after.settledCredential = written.credential;
  for (const field of LEASE_FIELDS) delete after[field];
  return after as unknown as Payment;
}

/** An expired lease, from the same state, held for the same credential. */
const TAKEOVER_CONDITION = '#state = :processing AND leaseFrom = :from AND leaseUntil < :now AND leaseCredential = :leaseCredential';

const key = (orderRef: string, paymentRef: string) => ({ pk: orderPk(orderRef), sk: paymentSk(paymentRef) });
const pendingKey = (orderRef: string, paymentRef: string) => ({ pk: orderPk(orderRef), sk: `${paymentSk(paymentRef)}#3DS` });

