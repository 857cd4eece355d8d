import { StoreConflictError } from '../../../core/ports/store-conflict.js';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ConfirmationBody } from './schemas.js';
import { dynamo, epochSeconds } from '../../dynamodb/dynamo.js';
import { SrcError } from './errors.js';

/** One POST the sandbox network's confirmations endpoint received. */
export interface ConfirmationReceipt {
  /** The sender's Idempotency-Key: the service's stable confirmation id. */
  confirmationId: string;
  receivedAt: string;
  body: ConfirmationBody;
}

/** What the sandbox network knows of one checkout's confirmations. */
export interface ConfirmationRecord {
  srcCorrelationId: string;
  /** Distinct confirmations, first receipt of each id, in the order they arrived. */
  confirmations: ConfirmationReceipt[];
  /** Every POST, repeats included (a retry whose first answer was lost shows twice here, once above). */
  receipts: number;
}

/** Enough for every outcome of a checkout and its retries; a runaway sender hits a 429. */
const MAX_RECEIPTS = 100;
const RETENTION_SECONDS = 7 * 24 * 3600;

/**
 * The sandbox network's ledger of confirmations (like the sandbox acquirer's ledger): one item
 * per srcCorrelationId (`srcconf#…`) in the sandbox table (hash key only, TTL),
 * a list of every receipt appended by one conditional write. Readable back through
 * POST /sandbox/src/confirmations/search, so tests and people can see what "the network" got.
 */
export class SandboxConfirmationLedger {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly now: () => number,
  ) {}

  async record(confirmationId: string, body: ConfirmationBody): Promise<void> {
    const now = this.now();
    const receipt: ConfirmationReceipt = { confirmationId, receivedAt: new Date(now).toISOString(), body };
    try {
      await dynamo(() =>
        this.client.send(
          new UpdateCommand({
            TableName: this.table,
            Key: { pk: ledgerKey(body.srcCorrelationId) },
            UpdateExpression: 'SET kind = :kind, receipts = list_append(if_not_exists(receipts, :none), :receipt), expiresAt = :expiresAt',
            ConditionExpression: 'attribute_not_exists(receipts) OR size(receipts) < :max',
            ExpressionAttributeValues: {
              ':kind': 'SRC_CONFIRMATIONS',
              ':none': [],
              ':receipt': [receipt],
              ':expiresAt': epochSeconds(now) + RETENTION_SECONDS,
              ':max': MAX_RECEIPTS,
            },
          }),
        ),
      );
    } catch (error) {
      if (error instanceof StoreConflictError) throw new SrcError(429, 'SERVICE_ERROR', 'Too many confirmations for this checkout.');
      throw error;
    }
  }

  async read(srcCorrelationId: string): Promise<ConfirmationRecord> {
    const { Item } = await dynamo(() =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { pk: ledgerKey(srcCorrelationId) }, ConsistentRead: true })),
    );
    const receipts = (Item?.receipts as ConfirmationReceipt[] | undefined) ?? [];
    const seen = new Set<string>();
    const confirmations = receipts.filter((receipt) => !seen.has(receipt.confirmationId) && seen.add(receipt.confirmationId));
    return { srcCorrelationId, confirmations, receipts: receipts.length };
  }
}

const ledgerKey = (srcCorrelationId: string) => `srcconf#${srcCorrelationId}`;
