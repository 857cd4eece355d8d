/**
 * The Idempotency-Key guard and Powertools' DynamoDB persistence layer it runs on, imported together
 * by ./idempotency.ts at the first request that carries the header. One import() rather than one
 * per module: the guard never loads without its persistence, and two entry points would split
 * what each shares with the handler (Powertools' commons, the invoke store) into more chunks, each
 * read at every cold start (docs/benchmarks.md "Cold start").
 */
export { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
export { IdempotencyGuard } from '../http/idempotency.js';
