import { brandDimension, declineCodeDimension, METRIC, metrics } from '../ports/metrics.js';

/**
 * What the payment use cases record, in their words. Each is called once, where the outcome
 * is decided (after the write that makes it true), so a retried request that only reads the
 * settled payment back counts nothing.
 */
type Environment = 'sandbox' | 'production';

export type AuthorizationResult = { approved: true } | { approved: false; declineCode: string } | 'failed';

/** An acquirer answer (approved / declined with its code) or no answer at all (failed). */
export function recordAuthorization(environment: Environment, brand: string | undefined, result: AuthorizationResult): void {
  const outcome = result === 'failed' ? 'failed' : result.approved ? 'approved' : 'declined';
  metrics.count(METRIC.authorizations, { environment, brand: brandDimension(brand), outcome });
  if (result !== 'failed' && !result.approved) {
    metrics.count(METRIC.declines, { environment, declineCode: declineCodeDimension(result.declineCode) });
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
