import type { IdempotencyGuard } from '../http/idempotency.js';
import { idempotencyKeyOf, type IdempotencyGate } from '../http/idempotency-request.js';
import { dynamoFailure } from '../adapters/dynamodb/dynamo.js';
import { dynamoClient } from './aws.js';
import { serviceConfig } from './config/service-config.js';

let guard: Promise<IdempotencyGuard> | undefined;

/**
 * The Idempotency-Key guard of the routes that opt in (`idempotency: 'supported'` in lib/http/routes.ts).
 * A request without the header never needs it: the guard, Powertools' idempotency utility and
 * its JMESPath are imported at the first request that carries one (a chunk of their own, not
 * read at the cold start: docs/benchmarks.md "Cold start") and built once; a failed load is
 * tried again by the next such request. Its persistence layer is handed the service's own
 * DynamoDB client, so every record read and write has the same deadlines as the repositories'
 * calls (lib/adapters/aws/clients.ts): a frozen table is a 503, never a hang. Item layout is
 * Powertools' (`status`, `expiration` — the table's TTL —, `in_progress_expiration`,
 * `validation`, `data`) under the table's `pk`.
 */
export function idempotencyGuard(): IdempotencyGate {
  return {
    run: async (call, work) => {
      if (idempotencyKeyOf(call.event) === undefined) return work();
      return (await loadedGuard()).run(call, work);
    },
  };
}

function loadedGuard(): Promise<IdempotencyGuard> {
  if (!guard) {
    const loading = loadGuard();
    guard = loading;
    loading.catch(() => {
      if (guard === loading) guard = undefined;
    });
  }
  return guard;
}

async function loadGuard(): Promise<IdempotencyGuard> {
  const { DynamoDBPersistenceLayer, IdempotencyGuard } = await import('./idempotency-guard.js');
  return new IdempotencyGuard(
    new DynamoDBPersistenceLayer({ tableName: serviceConfig.IDEMPOTENCY_TABLE, keyAttr: 'pk', awsSdkV3Client: dynamoClient }),
    dynamoFailure,
  );
}
