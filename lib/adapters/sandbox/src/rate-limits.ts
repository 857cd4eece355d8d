import { StoreConflictError } from '../../../core/ports/store-conflict.js';
import { createHash } from 'node:crypto';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamo, epochSeconds } from '../../dynamodb/dynamo.js';
import { SrcError, type SrcErrorReason } from './errors.js';

/**
 * The sandbox network's abuse limits (docs/sandbox-src-contract.md, "Limits"), as fixed-window
 * counters in the sandbox table: one item per limit, subject and window,
 * `pk = "src-limit#<limit>#<sha256(subject)>#<window start>"` (the subject — a consumer id or
 * the caller's IP address — is never stored in clear), with a TTL shortly after the window.
 * Each count is one conditional update (`count < max`), so concurrent requests on any number
 * of instances can never spend more than `max` between them.
 */
export type LimitName = 'otp-failures' | 'identity-lookups' | 'sessions';

export interface WindowLimit {
  max: number;
  windowSeconds: number;
}

export interface SrcLimits {
  /** Wrong one-time codes per consumer, across all SRC sessions. */
  otpFailuresPerConsumer: WindowLimit;
  /** Identity lookups that find a consumer (each "sends" a code) per consumer, across sessions. */
  lookupsPerConsumer: WindowLimit;
  /** Identity lookups per SRC session, over its whole life (kept in the session item). */
  lookupsPerSession: number;
  /** SRC sessions (`init`) per caller IP address. */
  sessionsPerClient: WindowLimit;
}

export const DEFAULT_SRC_LIMITS: SrcLimits = Object.freeze({
  otpFailuresPerConsumer: { max: 10, windowSeconds: 15 * 60 },
  lookupsPerConsumer: { max: 60, windowSeconds: 10 * 60 },
  lookupsPerSession: 10,
  sessionsPerClient: { max: 120, windowSeconds: 60 },
});

const REFUSALS: Record<LimitName, { reason: SrcErrorReason; message: string }> = {
  'otp-failures': { reason: 'OTP_ATTEMPTS_EXCEEDED', message: 'Too many wrong codes for this consumer: try again later.' },
  'identity-lookups': { reason: 'LOOKUP_LIMIT', message: 'Too many identity lookups: try again later.' },
  sessions: { reason: 'SESSION_LIMIT', message: 'Too many sessions from this client: try again later.' },
};

const KIND = 'sandbox-src-limit';
/** The item outlives its window a little, so a late reader still sees the count. */
const TTL_GRACE_SECONDS = 60;

export function limitKey(limit: LimitName, subject: string, windowStartSeconds: number): string {
  const hashed = createHash('sha256').update(subject, 'utf8').digest('hex');
  return `src-limit#${limit}#${hashed}#${windowStartSeconds}`;
}

/** A 429 in the network's own format, with when to come back. */
export function limitExceeded(limit: LimitName, retryAfterSeconds: number): SrcError {
  const { reason, message } = REFUSALS[limit];
  return new SrcError(429, reason, message, { retryAfterSeconds: Math.max(1, retryAfterSeconds) });
}

export class SrcRateLimiter {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** Counts one event; throws the limit's 429 (and counts nothing) when the window is full. */
  async consume(limit: LimitName, subject: string, rule: WindowLimit, nowMs: number): Promise<void> {
    const window = windowOf(rule, nowMs);
    try {
      await dynamo(() =>
        this.client.send(
          new UpdateCommand({
            TableName: this.table,
            Key: { pk: limitKey(limit, subject, window.start) },
            UpdateExpression: 'ADD #count :one SET kind = :kind, expiresAt = :expiresAt',
            ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
            ExpressionAttributeNames: { '#count': 'count' },
            ExpressionAttributeValues: { ':one': 1, ':max': rule.max, ':kind': KIND, ':expiresAt': window.end + TTL_GRACE_SECONDS },
          }),
        ),
      );
    } catch (error) {
      if (error instanceof StoreConflictError) throw limitExceeded(limit, window.end - epochSeconds(nowMs));
      throw error;
    }
  }

  /** Throws the limit's 429 when the window is already full; counts nothing. */
  async check(limit: LimitName, subject: string, rule: WindowLimit, nowMs: number): Promise<void> {
    const window = windowOf(rule, nowMs);
    const { Item } = await dynamo(() =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { pk: limitKey(limit, subject, window.start) }, ConsistentRead: true })),
    );
    if (typeof Item?.count === 'number' && Item.count >= rule.max) throw limitExceeded(limit, window.end - epochSeconds(nowMs));
  }
}

function windowOf(rule: WindowLimit, nowMs: number): { start: number; end: number } {
  const start = Math.floor(epochSeconds(nowMs) / rule.windowSeconds) * rule.windowSeconds;
  return { start, end: start + rule.windowSeconds };
}
