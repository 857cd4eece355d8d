import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { dynamoClient } from './aws.js';
import { serviceConfig } from './config/service-config.js';
import { IdempotencyGuard } from '../http/idempotency.js';
import { dynamoFailure } from '../adapters/dynamodb/dynamo.js';

let guard: IdempotencyGuard | undefined;

/**
 * The Idempotency-Key guard of the routes that opt in (`idempotency: 'supported'` in lib/http/routes.ts), built on
 * first use so that other functions never create it. Its persistence layer is handed the
 * service's own DynamoDB client, so every record read and write has the same deadlines as
 * the repositories' calls (lib/adapters/aws/clients.ts): a frozen table is a 503, never a hang.
 * Item layout is Powertools' (`status`, `expiration` — the table's TTL —,
 * `in_progress_expiration`, `validation`, `data`) under the table's `pk`.
 */
export function idempotencyGuard(): IdempotencyGuard {
  guard ??= new IdempotencyGuard(
    new DynamoDBPersistenceLayer({ tableName: serviceConfig.IDEMPOTENCY_TABLE, keyAttr: 'pk', awsSdkV3Client: dynamoClient }),
    dynamoFailure,
  );
  return guard;
}
