import { StoreConflictError } from '../../core/ports/store-conflict.js';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamo, epochSeconds } from './dynamo.js';
import type { Refusal, RefusalCode, ReplayClaim, ReplayStore } from '../../core/ports/replay-store.js';

/**
 * The replay guard of SPEC 4.3 step 4: one item per checkout response (hashed jti or
 * srcCorrelationId), claimed by one payment with a conditional write. An expired claim
 * counts as absent even before TTL deletes it.
 */
export class ReplayRepository implements ReplayStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly ttlSeconds = 24 * 3600,
  ) {}

  async claim(replayKey: string, paymentRef: string, now = Date.now()): Promise<ReplayClaim> {
    // Nearly always the checkout response is new: the cheapest condition, and nothing to send
    // back. A claim already there (a repeat, a replay, an expired claim) goes the longer way,
    // unless the item the failed condition returned is another payment's live claim.
    const first = await this.write(replayKey, paymentRef, now, 'new');
    if (first.claimed) return { outcome: 'claimed' };
    const holder = first.holder;
    // What the longer way's condition would refuse: another payment's claim, not expired.
    if (holder !== undefined && holder.paymentRef !== paymentRef && !(Number(holder.expiresAt) < epochSeconds(now))) {
      return { outcome: 'held', paymentRef: String(holder.paymentRef ?? '') };
    }
    const again = await this.write(replayKey, paymentRef, now, 'existing');
    if (!again.claimed) return { outcome: 'held', paymentRef: String(again.holder?.paymentRef ?? '') };
    const refused = again.old?.refused as { paymentRef?: unknown; code?: unknown; detail?: unknown } | undefined;
    // Only this payment's own refusal counts (an expired claim of another may leave one behind).
    if (refused?.paymentRef === paymentRef && isRefusalCode(refused.code)) {
      return { outcome: 'claimed', refused: { code: refused.code, detail: String(refused.detail ?? '') } };
    }
    return { outcome: 'claimed' };
  }

  /**
   * One conditional write of the claim: `new` only where there is none; `existing` also over an
   * expired claim or this payment's own (and then sends the old item back, for its refusal).
   * A lost condition answers the item that won (returned with it, or read: dynalite).
   */
  private async write(replayKey: string, paymentRef: string, now: number, kind: 'new' | 'existing') {
    const expiresAt = epochSeconds(now) + this.ttlSeconds;
    try {
      const { Attributes } = await dynamo(() =>
        this.client.send(
          new UpdateCommand({
            TableName: this.table,
            Key: { pk: replayKey },
            UpdateExpression: 'SET paymentRef = :payment, expiresAt = :expiresAt',
            ...(kind === 'new'
              ? { ConditionExpression: 'attribute_not_exists(pk)', ExpressionAttributeValues: { ':payment': paymentRef, ':expiresAt': expiresAt } }
              : {
                  ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now OR paymentRef = :payment',
                  ExpressionAttributeValues: { ':now': epochSeconds(now), ':payment': paymentRef, ':expiresAt': expiresAt },
                  ReturnValues: 'ALL_OLD' as const,
                }),
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
      );
      return { claimed: true as const, old: Attributes };
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
      return { claimed: false as const, holder: error.current ?? (await this.read(replayKey)) };
    }
  }

  /** Remembers that `paymentRef` took this checkout response to a final refusal (see ReplayClaim). */
  async refuse(replayKey: string, paymentRef: string, { code, detail }: Refusal): Promise<void> {
    await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: replayKey },
          UpdateExpression: 'SET refused = :refused',
          ConditionExpression: 'paymentRef = :payment',
          ExpressionAttributeValues: { ':refused': { paymentRef, code, detail }, ':payment': paymentRef },
        }),
      ),
    );
  }

  private async read(replayKey: string): Promise<Record<string, unknown> | undefined> {
    const { Item } = await dynamo(() => this.client.send(new GetCommand({ TableName: this.table, Key: { pk: replayKey }, ConsistentRead: true })));
    return Item;
  }
}

const REFUSAL_CODES: readonly unknown[] = ['CHECKOUT_DECRYPTION_FAILED', 'CHECKOUT_PAYLOAD_INVALID', 'PAYMENT_STATE_CONFLICT'] satisfies RefusalCode[];
const isRefusalCode = (code: unknown): code is RefusalCode => REFUSAL_CODES.includes(code);

export type { Refusal, RefusalCode, ReplayClaim };
