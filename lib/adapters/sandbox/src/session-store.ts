import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamo, epochSeconds } from '../../dynamodb/dynamo.js';
import type { ValidationChannel } from './consumers.js';

/** A card enrolled in this SRC session: masked data only (the card itself stays in its JWE). */
export interface EnrolledCard {
  srcDigitalCardId: string;
  brand: 'VISA' | 'MASTERCARD';
  /** First six digits only: BIN + last four is the most a truncated card may show. */
  panBin: string;
  panLastFour: string;
  panExpirationMonth: string;
  panExpirationYear: string;
  descriptorName: string;
}

export interface PendingOtp {
  channel: ValidationChannel;
  /** Epoch ms of the last (re)send: a code is valid for 10 minutes. */
  issuedAt: number;
  resendsLeft: number;
}

/** What the network remembers about one SDK session. No identity value, no card number. */
export interface SrcSessionState {
  dpaId: string;
  /** Upper-case brands the DPA accepts (VISA, MASTERCARD). */
  cardBrands: string[];
  /** The catalogue consumer found by the last identity lookup (lib/adapters/sandbox/src/consumers.ts). */
  consumerId?: string;
  otp?: PendingOtp;
  /**
   * Wrong codes in this session, whoever was looked up. Never reset — not by a new lookup, not
   * by sign-out — so a lookup cannot hand out fresh attempts (absent in sessions written
   * before it existed: 0).
   */
  otpFailures?: number;
  /** Identity lookups in this session (limited: rate-limits.ts lookupsPerSession). */
  lookups?: number;
  authenticated: boolean;
  /** Three wrong codes lock the session for OTP and lookups (RETRIES_EXCEEDED / ACCOUNT_LOCKED). */
  locked: boolean;
  enrolledCards: EnrolledCard[];
}

export interface SrcSession {
  state: SrcSessionState;
  version: number;
  /** Epoch seconds; the DynamoDB TTL attribute. */
  expiresAt: number;
}

export const SRC_SESSION_TTL_SECONDS = 30 * 60;
const KIND = 'sandbox-src-session';

/** `src#<sha256(sessionId)>`: the id itself is a bearer secret and is never stored. */
export function srcSessionKey(sessionId: string): string {
  return `src#${createHash('sha256').update(sessionId, 'utf8').digest('hex')}`;
}

/**
 * SRC sessions in the sandbox table (`src#…`, beside the sandbox's other items; never in the
 * product's Sessions table). Every change is a versioned conditional update: two
 * concurrent OTP attempts cannot both spend the same remaining attempt.
 */
export class SrcSessionStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(sessionId: string, state: SrcSessionState, nowMs: number): Promise<void> {
    const expiresAt = epochSeconds(nowMs) + SRC_SESSION_TTL_SECONDS;
    await dynamo(() =>
      this.client.send(
        new PutCommand({
          TableName: this.table,
          Item: { pk: srcSessionKey(sessionId), kind: KIND, state, version: 0, expiresAt, createdAt: new Date(nowMs).toISOString() },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  }

  /**
   * The live session, or undefined when unknown or expired (TTL deletion is lazy). Strongly
   * consistent: a session is read right after `init` or a change wrote it, and an eventually
   * consistent read could miss the session or hand back an old version (then every save fails).
   */
  async get(sessionId: string, nowMs: number): Promise<SrcSession | undefined> {
    const { Item } = await dynamo(() =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { pk: srcSessionKey(sessionId) }, ConsistentRead: true })),
    );
    if (!Item || Item.kind !== KIND || typeof Item.expiresAt !== 'number' || Item.expiresAt <= epochSeconds(nowMs)) return undefined;
    return { state: Item.state as SrcSessionState, version: Item.version as number, expiresAt: Item.expiresAt };
  }

  /** Writes `state` if nobody changed the session since `session` was read; else StoreConflictError. */
  async save(sessionId: string, session: SrcSession, state: SrcSessionState, nowMs: number): Promise<void> {
    await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: srcSessionKey(sessionId) },
          UpdateExpression: 'SET #state = :state, #version = :next',
          ConditionExpression: '#version = :version AND expiresAt > :now',
          ExpressionAttributeNames: { '#state': 'state', '#version': 'version' },
          ExpressionAttributeValues: { ':state': state, ':next': session.version + 1, ':version': session.version, ':now': epochSeconds(nowMs) },
        }),
      ),
    );
  }
}
