import type { AuthorizationOutcome } from '../ports/authorizer.js';
import { brandDimension, declineCodeDimension, METRIC, metrics } from '../ports/metrics.js';

/**
 * What the payment use cases record, in their words. Each is called once, where the outcome
 * is decided (after the write that makes it true), so a retried request that only reads the
 * settled payment back counts nothing.
 */
type Environment = 'sandbox' | 'production';

/** An acquirer answer (approved / declined with its reason / pending at the processor) or no answer at all (failed). */
export function recordAuthorization(environment: Environment, brand: string | undefined, result: AuthorizationOutcome | 'failed'): void {
  const outcome = result === 'failed' ? 'failed' : result.kind;
  metrics.count(METRIC.authorizations, { environment, brand: brandDimension(brand), outcome });
  if (result !== 'failed' && result.kind === 'declined') {
    metrics.count(METRIC.declines, { environment, declineCode: declineCodeDimension(result.decline.reason) });
  }
}

export function recordThreeDsStepUp(environment: Environment): void {
  metrics.count(METRIC.threeDsStepUps, { environment });
}

export function recordThreeDsResult(environment: Environment, result: 'authenticated' | 'failed' | 'expired'): void {
  metrics.count(METRIC.threeDsResults, { environment, result });
}

export function recordReplayRefused(): void {
  metrics.count(METRIC.replaysRefused);
}

export function recordPaymentOperation(kind: 'CAPTURE' | 'REFUND' | 'REVERSAL', outcome: 'succeeded' | 'failed'): void {
  metrics.count(METRIC.paymentOperations, { operation: kind.toLowerCase(), outcome });
}
