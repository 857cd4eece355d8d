import { createHash, randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamo, epochSeconds, nowIso } from '../dynamodb/dynamo.js';
import type {
  AuthorizationOutcome,
  AuthorizationRequest,
  Authorizer,
  ModificationRequest,
  RecoveryAnswer,
  RecoveryQuery,
} from '../../core/ports/authorizer.js';
import { decline, type DeclineReason } from '../../core/domain/decline.js';

/** What the sandbox acquirer keeps per operation: never card data, only what it decided. */
export interface SandboxOperation {
  idempotencyKey: string;
  operation: 'AUTHORIZE' | ModificationRequest['kind'];
  /** For a capture, reversal or refund: the authorization it acts on. */
  paymentRef?: string;
  outcome: AuthorizationOutcome;
  amount: AuthorizationRequest['amount'];
  brand: string;
  /** How many times the service sent this operation: SPEC §3 says exactly one. */
  calls: number;
  createdAt: string;
}

const RETENTION_SECONDS = 90 * 24 * 3600;

/**
 * The sandbox acquirer of SPEC §5. Deterministic rules:
 *   amount ending 51 → INSUFFICIENT_FUNDS; ending 05 → DO_NOT_HONOUR;
 *   token/PAN ending 0002 → CARD_EXPIRED; amount ending 99 → never answers (timeout).
 * Captures, reversals and refunds are approved, except an amount ending 99 (never answers).
 * Like a real acquirer it keeps its operations (in DynamoDB, so `recover` works across
 * Lambda instances and restarts: the sandbox's own table, never the product's), answers a
 * repeated idempotency key with the first outcome, and counts every call so "at most once" can
 * be checked from outside. It answers at once (never `pending`), and recovers by reference: its
 * own reference of an operation is the idempotency key it was sent under. Declines carry a
 * `sandbox:` processor code.
 */
export class SandboxAuthorizer implements Authorizer {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async authorize(request: AuthorizationRequest, signal: AbortSignal): Promise<AuthorizationOutcome> {
    const outcome = decide(request);
    if (outcome === 'no-answer') return hang(signal);
    return this.record(
      request.idempotencyKey,
      { operation: 'AUTHORIZE', outcome, amount: request.amount, brand: request.brand, paymentRef: request.idempotencyKey },
      signal,
    );
  }

  async modify(request: ModificationRequest, signal: AbortSignal): Promise<AuthorizationOutcome> {
    if (endsIn(request.amount.value, '99')) return hang(signal);
    const authorization = await this.operation(request.paymentRef, signal);
    const outcome: AuthorizationOutcome =
      authorization?.outcome.kind === 'approved'
        ? approved(request.idempotencyKey)
        : { kind: 'declined', decline: decline('NO_AUTHORIZATION', 'sandbox:NO_AUTHORIZATION') };
    return this.record(
      request.idempotencyKey,
      { operation: request.kind, outcome, amount: request.amount, brand: authorization?.brand ?? 'UNKNOWN', paymentRef: request.paymentRef },
      signal,
    );
  }

  /**
   * The first call writes the record; every call adds its own id to a set, so the SDK retrying
   * this very write cannot count twice. A repeated key answers the first outcome. What the first
   * call decided is one map (`first`), so the write is one short expression however many facts
   * it keeps.
   */
  private async record(
    idempotencyKey: string,
    first: Pick<SandboxOperation, 'operation' | 'outcome' | 'amount' | 'brand' | 'paymentRef'>,
    signal: AbortSignal,
  ): Promise<AuthorizationOutcome> {
    const { Attributes } = await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(idempotencyKey),
          UpdateExpression: 'SET #first = if_not_exists(#first, :first), expiresAt = if_not_exists(expiresAt, :expiresAt) ADD callIds :callId',
          ExpressionAttributeNames: { '#first': 'first' }, // a reserved word
          ExpressionAttributeValues: {
            ':first': { ...first, paymentRef: first.paymentRef ?? idempotencyKey, createdAt: nowIso() },
            ':expiresAt': epochSeconds() + RETENTION_SECONDS,
            ':callId': new Set([randomUUID()]),
          },
          ReturnValues: 'ALL_NEW',
        }),
        { abortSignal: signal },
      ),
    );
    return (Attributes!.first as FirstCall).outcome; // the first outcome, also for a repeat
  }

  /** By reference (the idempotency key): what it did, or absent when it never performed it. */
  async recover(query: RecoveryQuery, signal: AbortSignal): Promise<RecoveryAnswer> {
    const key = query.operation === 'AUTHORIZE' ? query.reference : query.request.idempotencyKey;
    const known = await this.operation(key, signal);
    return known ? { kind: 'known', outcome: known.outcome } : { kind: 'absent' };
  }

  /** The acquirer's record of one operation, for tests and operators (undefined: never performed). */
  async operation(idempotencyKey: string, signal?: AbortSignal): Promise<SandboxOperation | undefined> {
    const { Item } = await dynamo(() =>
      this.client.send(new GetCommand({ TableName: this.table, Key: key(idempotencyKey), ConsistentRead: true }), signal ? { abortSignal: signal } : {}),
    );
    if (!Item) return undefined;
    return { idempotencyKey, ...(Item.first as FirstCall), calls: (Item.callIds as Set<string> | undefined)?.size ?? 0 };
  }
}

type FirstCall = Omit<SandboxOperation, 'idempotencyKey' | 'calls'>;

/** The sandbox's raw codes: the ISO 8583 response code a real issuer would have sent. */
const SANDBOX_CODES: Partial<Record<DeclineReason, string>> = { INSUFFICIENT_FUNDS: '51', DO_NOT_HONOUR: '05', CARD_EXPIRED: '54' };

function sandboxDecline(code: string): ReturnType<typeof decline> {
  const reason = (code in SANDBOX_CODES || code === 'NO_AUTHORIZATION' ? code : 'PROCESSOR_REFUSED') as DeclineReason;
  return decline(reason, `sandbox:${SANDBOX_CODES[reason] ?? code}`);
}

function decide(request: AuthorizationRequest): AuthorizationOutcome | 'no-answer' {
  const value = request.amount.value;
  if (endsIn(value, '99')) return 'no-answer';
  if (endsIn(value, '51')) return { kind: 'declined', decline: sandboxDecline('INSUFFICIENT_FUNDS') };
  if (endsIn(value, '05')) return { kind: 'declined', decline: sandboxDecline('DO_NOT_HONOUR') };
  if (request.credential.number.endsWith('0002')) return { kind: 'declined', decline: sandboxDecline('CARD_EXPIRED') };
  return approved(request.idempotencyKey);
}

/** Its own reference of an operation is the key it was sent under; the code is derived from it. */
const approved = (idempotencyKey: string): AuthorizationOutcome => ({
  kind: 'approved',
  processorReference: idempotencyKey,
  authorizationCode: referenceOf(idempotencyKey),
  resultCode: '00',
});

const endsIn = (value: number, digits: string) => String(value).padStart(2, '0').endsWith(digits);
const referenceOf = (idempotencyKey: string) => createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 6).toUpperCase();

/** The acquirer's records in the sandbox table (keyed by `pk` alone; the roles that call it may reach only this prefix and the ACS's). */
const key = (idempotencyKey: string) => ({ pk: `SANDBOX_ACQUIRER#${idempotencyKey}` });

function hang(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(new Error('aborted'));
    signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
  });
}
