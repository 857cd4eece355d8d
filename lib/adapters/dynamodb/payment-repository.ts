import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LEASE_FIELDS, type LeaseClause, type LeaseOrigin } from '../../core/domain/lease-rule.js';
import type { Payment } from '../../core/domain/payment.js';
import type { OutboxEntry } from '../../core/ports/outbox.js';
import type { FinalPatch, LeaseRequest, LeaseTaken, PaymentStore, PendingThreeDs } from '../../core/ports/payment-store.js';
import { dynamo } from './dynamo.js';
import { appendToOutbox } from './outbox.js';
import { orderPk, paymentSk, stripItem } from './order-repository.js';

/**
 * Payment state transitions (SPEC §3), each a single conditional UpdateItem:
 * STARTED|AWAIT_3DS → PROCESSING (a lease with an expiry) → final, or back on release.
 * A lease whose holder crashed can be taken over once it expires.
 */
export class PaymentRepository implements PaymentStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(orderRef: string, paymentRef: string): Promise<Payment | undefined> {
    const { Item } = await dynamo(() => this.client.send(new GetCommand({ TableName: this.table, Key: key(orderRef, paymentRef), ConsistentRead: true })));
    return Item && Item.kind === 'PAYMENT' ? stripItem<Payment>(Item) : undefined;
  }

  /**
   * Takes the lease when the item meets `lease.requires` (the core's LEASE_RULE, rendered as the
   * write's condition). Throws StoreConflictError, carrying the item as it was when the engine
   * returns it. Answers what the lease replaced, so the caller knows whether an earlier attempt
   * may have reached the acquirer.
   */
  async acquireLease(payment: Pick<Payment, 'orderRef' | 'paymentRef'>, lease: LeaseRequest): Promise<LeaseTaken> {
    const extra: Record<string, unknown> = { leaseCredential: lease.credential };
    if (lease.masked) extra.leaseMasked = lease.masked;
    if (lease.payerIp) extra.payerIp = lease.payerIp;
    if (lease.srcCheckout) extra.srcCheckout = lease.srcCheckout;
    const sets = Object.keys(extra).map((name) => `${name} = :${name}`);
    const at = new Date(lease.now).toISOString();
    const condition = conditionOf(lease.requires);
    const { Attributes } = await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(payment.orderRef, payment.paymentRef),
          UpdateExpression: `SET #state = :processing, leaseId = :leaseId, leaseUntil = :until, leaseFrom = :from, version = version + :one, updatedAt = :at, ${sets.join(', ')}`,
          ConditionExpression: condition.expression,
          ExpressionAttributeNames: { '#state': 'state', ...condition.names },
          ExpressionAttributeValues: {
            ':processing': 'PROCESSING',
            ':leaseId': lease.leaseId,
            ':until': lease.leaseUntil,
            ':from': lease.from,
            ...condition.values,
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
    const leased: Payment = {
      ...stripItem<Payment>(old),
      state: 'PROCESSING',
      leaseId: lease.leaseId,
      leaseUntil: lease.leaseUntil,
      leaseFrom: lease.from,
      version: old.version + 1,
      updatedAt: at,
      ...(extra as Partial<Payment>),
    };
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
  async release(payment: Pick<Payment, 'orderRef' | 'paymentRef'>, leaseId: string, to: LeaseOrigin, now: number): Promise<void> {
    await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(payment.orderRef, payment.paymentRef),
          UpdateExpression: `SET #state = :to, version = version + :one, updatedAt = :at REMOVE ${LEASE_FIELDS.join(', ')}`,
          ConditionExpression: '#state = :processing AND leaseId = :leaseId',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':to': to, ':processing': 'PROCESSING', ':leaseId': leaseId, ':one': 1, ':at': new Date(now).toISOString() },
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
  async park(
    payment: Pick<Payment, 'orderRef' | 'paymentRef'>,
    leaseId: string,
    now: number,
    parkedUntil: number,
    processorReference?: string,
    events: readonly OutboxEntry[] = [],
  ): Promise<void> {
    const k = key(payment.orderRef, payment.paymentRef);
    const outbox = appendToOutbox(k.pk, events, now);
    const sets = [
      'leaseUntil = :now',
      'parkedUntil = :parked',
      'version = version + :one',
      'updatedAt = :at',
      ...(processorReference ? ['processorReference = :ref'] : []),
      ...outbox.set,
    ];
    await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: k,
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: '#state = :processing AND leaseId = :leaseId',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':now': now,
            ':parked': parkedUntil,
            ':processing': 'PROCESSING',
            ':leaseId': leaseId,
            ':one': 1,
            ':at': new Date(now).toISOString(),
            ...(processorReference ? { ':ref': processorReference } : {}),
            ...outbox.values,
          },
        }),
      ),
    );
  }

  async putPendingThreeDs(orderRef: string, paymentRef: string, pending: PendingThreeDs, options: { unlessAReqSentFor?: string } = {}): Promise<void> {
    const claim = options.unlessAReqSentFor;
    await dynamo(() =>
      this.client.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...pendingKey(orderRef, paymentRef), kind: 'THREE_DS', ...pending },
          // The AReq claim: whoever finds it already claimed for this transaction never sends it.
          ...(claim
            ? {
                ConditionExpression: 'attribute_not_exists(areqSentFor) OR areqSentFor <> :tx',
                ExpressionAttributeValues: { ':tx': claim },
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
              }
            : {}),
        }),
      ),
    );
  }

  /** Undefined when absent or expired (TTL deletion is lazy). */
  async getPendingThreeDs(orderRef: string, paymentRef: string, now: number): Promise<PendingThreeDs | undefined> {
    const { Item } = await dynamo(() =>
      this.client.send(new GetCommand({ TableName: this.table, Key: pendingKey(orderRef, paymentRef), ConsistentRead: true })),
    );
    if (Item?.kind !== 'THREE_DS' || (Item.expiresAt as number) * 1000 <= now) return undefined;
    return stripItem<PendingThreeDs>(Item);
  }

  async deletePendingThreeDs(orderRef: string, paymentRef: string): Promise<void> {
    await dynamo(() => this.client.send(new DeleteCommand({ TableName: this.table, Key: pendingKey(orderRef, paymentRef) })));
  }
}

/**
 * The lease rule's clauses as a ConditionExpression (`#l0 = :l0 AND #l1 < :l1 …`): the write
 * allows exactly what lib/core/domain/lease-rule.ts `satisfies` says.
 */
function conditionOf(clauses: readonly LeaseClause[]) {
  return {
    expression: clauses.map(({ op }, index) => `#l${index} ${op} :l${index}`).join(' AND '),
    names: Object.fromEntries(clauses.map(({ field }, index) => [`#l${index}`, field])),
    values: Object.fromEntries(clauses.map(({ value }, index) => [`:l${index}`, value])),
  };
}

const key = (orderRef: string, paymentRef: string) => ({ pk: orderPk(orderRef), sk: paymentSk(paymentRef) });
const pendingKey = (orderRef: string, paymentRef: string) => ({ pk: orderPk(orderRef), sk: `${paymentSk(paymentRef)}#3DS` });
