import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyRecordStatus,
  IdempotencyInconsistentStateError,
  IdempotencyItemNotFoundError,
  IdempotencyPersistenceLayerError,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import type { Context } from 'aws-lambda';
import { DomainError, IdempotencyKeyInUseError, IdempotencyKeyReusedError, InternalError } from '../core/errors.js';
import type { Logger } from '../core/ports/logger.js';
import { deriveSecrets, openResponse, requestFingerprint, sealResponse, type StoredResponse } from './idempotency-seal.js';
import { describeRequest, idempotencyKeyOf, idempotencyScope, type IdempotentCall } from './idempotency-request.js';
import type { ApiResult } from './types.js';

export { idempotencyKeyOf, idempotencyScope };

export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** SPEC 4.13: a key answers the same response for 24 h. */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;
/** Constant, not the function name: one key names one request across every route (reuse → 422). */
const KEY_PREFIX = 'idempotency-key';

/** What Powertools hashes: `key` into the record's `pk`, `request` into its `validation`. */
type IdempotencyPayload = {
  key: { scope: string; idempotencyKey: string };
  request: string;
};

/**
 * The Idempotency-Key header (SPEC 4.13) around one use-case call, after authentication and
 * input validation (so 400/401/403 are never stored), on Powertools' idempotency utility and
 * its DynamoDB persistence layer:
 * - the record is keyed by scope + key; the request (method, path, query, JSON body and the
 *   caller's narrowing) is its payload validation: another request → 422, one still running
 *   (in-progress record, expiring with the Lambda's remaining time) → 409 with a Retry-After
 *   that says when that record can have finished or expired;
 * - only 2xx results are stored. When the use case throws, Powertools deletes the record, so
 *   the same key can be retried once the cause is fixed; a non-2xx result is turned into a
 *   throw for the same reason. The use case's own errors come out unchanged.
 * - the stored response is sealed and the fingerprint keyed (idempotency-seal.ts).
 */
export class IdempotencyGuard {
  /**
   * `storeFailure` says what a failure of the record store means to the client (the DynamoDB
   * adapter's mapping: misconfiguration 500, anything else 503): the guard never guesses.
   */
  constructor(
    private readonly store: BasePersistenceLayer,
    private readonly storeFailure: (error: unknown) => DomainError,
  ) {}

  async run(call: IdempotentCall, work: () => Promise<ApiResult>): Promise<ApiResult> {
    const idempotencyKey = idempotencyKeyOf(call.event);
    if (idempotencyKey === undefined) return work();
    const scope = idempotencyScope(call.principal);
    const secrets = deriveSecrets(scope, idempotencyKey);
    const payload: IdempotencyPayload = {
      key: { scope, idempotencyKey },
      request: requestFingerprint(secrets, describeRequest(call)),
    };
    let fresh: StoredResponse | undefined;
    let useCaseError: { error: unknown } | undefined;
    const config = new IdempotencyConfig({
      eventKeyJmesPath: 'key',
      payloadValidationJmesPath: 'request',
      throwOnNoIdempotencyKey: true,
      expiresAfterSeconds: IDEMPOTENCY_WINDOW_SECONDS,
      hashFunction: 'sha256',
    });
    config.registerLambdaContext(call.context); // in-progress expiry = the invocation's remaining time
    const once = makeIdempotent(
      async (_payload: IdempotencyPayload): Promise<string> => {
        let result: ApiResult;
        try {
          result = await work();
        } catch (error) {
          useCaseError = { error };
          throw error;
        }
        fresh = { status: result.status ?? 200, body: result.body, ...(result.headers ? { headers: result.headers } : {}) };
        if (fresh.status < 200 || fresh.status > 299) throw new NotStored();
        return sealResponse(secrets, fresh);
      },
      { persistenceStore: this.store, config, keyPrefix: KEY_PREFIX, dataIndexArgument: 0 },
    );
    let stored: unknown;
    try {
      stored = await once(payload);
    } catch (error) {
      if (useCaseError) {
        if (error !== useCaseError.error) call.logger.error('idempotency record not released', { error });
        throw useCaseError.error;
      }
      // The work is done: its answer is worth more than the record (a 503 would invite a retry
      // that runs it again once the in-progress record expires).
      if (fresh) {
        if (!(error instanceof NotStored)) call.logger.error('idempotent response not stored', { error });
        return fresh;
      }
      if (error instanceof IdempotencyAlreadyInProgressError) {
        throw new IdempotencyKeyInUseError(undefined, { cause: error, retryAfterMs: (await this.inProgressRetryAfter(payload, call.context)) * 1000 });
      }
      throw idempotencyFailure(error, this.storeFailure);
    }
    if (fresh) return fresh;
    return replay(secrets, stored, call.logger);
  }

  /**
   * SPEC 4.13: seconds until the request holding the key can have finished — its in-progress
   * record is completed, released, or expires (`in_progress_expiration`: that invocation's start
   * plus its remaining time, past which the key is free whatever became of it). Read again
   * (strongly consistent) because Powertools' error does not carry the record. A record already
   * finished or gone: retry now (1). Unreadable: the same function's timeout is the bound, and
   * our own remaining time is the closest estimate of it.
   */
  private async inProgressRetryAfter(payload: IdempotencyPayload, context: Context): Promise<number> {
    const now = Date.now();
    try {
      const record = await this.store.getRecord(payload);
      if (record.getStatus() !== IdempotencyRecordStatus.INPROGRESS) return 1;
      if (record.inProgressExpiryTimestamp !== undefined) return secondsUntil(record.inProgressExpiryTimestamp, now);
    } catch (error) {
      if (error instanceof IdempotencyItemNotFoundError) return 1;
    }
    return secondsUntil(now + context.getRemainingTimeInMillis(), now);
  }
}

/** Whole seconds from `now` until `at` (ms), at least 1, at most Lambda's 15-minute ceiling. */
function secondsUntil(at: number, now: number): number {
  return Math.min(900, Math.max(1, Math.ceil((at - now) / 1000)));
}

function replay(secrets: ReturnType<typeof deriveSecrets>, stored: unknown, logger: Logger): ApiResult {
  let response: StoredResponse;
  try {
    response = openResponse(secrets, stored);
  } catch (error) {
    throw new InternalError(undefined, { cause: error });
  }
  logger.info('idempotent replay', { status: response.status });
  return { ...response, headers: { ...response.headers, [REPLAYED_HEADER]: 'true' } };
}

function idempotencyFailure(error: unknown, storeFailure: (error: unknown) => DomainError): DomainError {
  if (error instanceof DomainError) return error;
  if (error instanceof IdempotencyValidationError) return new IdempotencyKeyReusedError(undefined, { cause: error });
  // In progress, or the record changed under us (the other request just finished or failed).
  if (
    error instanceof IdempotencyAlreadyInProgressError ||
    error instanceof IdempotencyInconsistentStateError ||
    error instanceof IdempotencyItemNotFoundError
  ) {
    return new IdempotencyKeyInUseError(undefined, { cause: error });
  }
  return storeFailure(error instanceof IdempotencyPersistenceLayerError ? (error.cause ?? error) : error);
}

/** Thrown inside the idempotent call for a non-2xx result, so that Powertools deletes the record. */
class NotStored extends Error {
  constructor() {
    super('a non-2xx result is not stored');
    this.name = 'NotStored';
  }
}

export type { IdempotentCall };
