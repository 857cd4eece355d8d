import { METRIC, metrics } from '../../core/ports/metrics.js';

export type Dependency = 'dynamodb' | 'kms' | 'secretsmanager' | 'ssm';
export type FailureReason = 'throttled' | 'timeout' | 'unavailable';

/** SDK error names that mean "too many requests" (DynamoDB and KMS; the SDK's own retry gave up). */
const THROTTLED = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'LimitExceededException',
  'TooManyRequestsException',
]);
const TIMEOUT = new Set(['TimeoutError', 'AbortError', 'RequestTimeout', 'RequestTimeoutException']);

/** Why a dependency call became a 503: the dimension the KMS-throttling alarm watches. */
export function failureReason(error: unknown): FailureReason {
  const name = (error as { name?: unknown } | null)?.name;
  if (typeof name === 'string' && THROTTLED.has(name)) return 'throttled';
  if (typeof name === 'string' && TIMEOUT.has(name)) return 'timeout';
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ETIMEDOUT' || code === 'ABORT_ERR') return 'timeout';
  return 'unavailable';
}

/** Counts one DependencyUnavailable cause, by dependency and reason. */
export function recordDependencyFailure(dependency: Dependency, error: unknown): void {
  metrics.count(METRIC.dependencyErrors, { dependency, reason: failureReason(error) });
}
