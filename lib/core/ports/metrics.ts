import { DECLINE_REASONS } from '../domain/decline.js';
/**
 * The metrics port (issue 11 item 3). Use cases and adapters record through `metrics` and
 * never import Powertools: the EMF adapter (emf-recorder.ts) sits behind it and is flushed
 * once per invocation (flush-middleware.ts, the webhook worker). Tests spy on `metrics.count`
 * / `metrics.timing` to assert what a request recorded.
 *
 * Cost rule: every distinct (name, dimension values) pair is one CloudWatch custom metric
 * (billed monthly), so dimension values come from the closed sets below, never from ids,
 * amounts or free text; anything finer goes in the log line next to it.
 */
export const METRIC = {
  /** dims: environment, brand, outcome (approved | declined | failed) */
  authorizations: 'Authorizations',
  /** dims: environment, declineCode (DECLINE_CODES, else OTHER) */
  declines: 'Declines',
  /** dims: environment */
  threeDsStepUps: 'ThreeDsStepUps',
  /** dims: environment, result (authenticated | failed | expired) */
  threeDsResults: 'ThreeDsResults',
  /** no dims: a checkout response presented for a second payment (CHECKOUT_RESPONSE_REPLAYED) */
  replaysRefused: 'ReplaysRefused',
  /** dims: operation (capture | refund | reversal), outcome (succeeded | failed) */
  paymentOperations: 'PaymentOperations',
  /** dims: dependency (dynamodb | kms), reason (throttled | timeout | unavailable) — every failed call, also one a retry recovered from (a throttling signal, not a count of 503 answers: ServerErrors counts those) */
  dependencyErrors: 'DependencyErrors',
  /** dims: code (INTERNAL_ERROR | AUTHORIZATION_UNAVAILABLE | DEPENDENCY_UNAVAILABLE) — every 5xx answered */
  serverErrors: 'ServerErrors',
  /** Milliseconds. dims: route (the route table's, e.g. "POST /transactions/…/click-to-pay") */
  latency: 'Latency',
  /** dims: outcome (delivered | retrying | failed) — one per webhook delivery attempt */
  webhookDeliveries: 'WebhookDeliveries',
  /** dims: outcome (delivered | retrying | failed) — one per network confirmation attempt (Mastercard, SPEC 4.3) */
  networkConfirmations: 'NetworkConfirmations',
} as const;

export type MetricName = (typeof METRIC)[keyof typeof METRIC];
export type Dimensions = Readonly<Record<string, string>>;

export interface MetricsRecorder {
  count(name: MetricName, dimensions?: Dimensions, value?: number): void;
  timing(name: MetricName, milliseconds: number, dimensions?: Dimensions): void;
  /** Writes what was recorded since the last flush (one EMF line per dimension set). */
  flush(): void;
}

/**
 * Decline codes that may become a dimension value: every decline reason an authorizer maps to
 * (lib/core/domain/decline.ts), and the service's own. Anything else counts as OTHER, so a
 * dimension never carries a free-form code.
 */
export const DECLINE_CODES: ReadonlySet<string> = new Set([...Object.keys(DECLINE_REASONS), 'NOT_PERFORMED', 'THREE_DS_FAILED', 'THREE_DS_EXPIRED']);
export const declineCodeDimension = (code: string): string => (DECLINE_CODES.has(code) ? code : 'OTHER');

const BRANDS = new Set(['VISA', 'MASTERCARD', 'AMEX', 'DISCOVER']);
export const brandDimension = (brand: string | undefined): string => (brand && BRANDS.has(brand) ? brand : 'UNKNOWN');

/** Until an adapter is installed (tests of bare use cases), recording is a no-op. */
const discard: MetricsRecorder = { count: () => undefined, timing: () => undefined, flush: () => undefined };
let recorder: MetricsRecorder = discard;

/** Installs the adapter (lib/adapters/metrics/emf-recorder.ts does on import). */
export function useMetricsRecorder(next: MetricsRecorder): void {
  recorder = next;
}

/**
 * The one object everything records through. Recording never throws: a metric must never
 * turn a payment into a 500.
 */
export const metrics: MetricsRecorder = {
  count(name, dimensions = {}, value = 1) {
    try {
      recorder.count(name, dimensions, value);
    } catch {
      /* metrics are best effort */
    }
  },
  timing(name, milliseconds, dimensions = {}) {
    try {
      recorder.timing(name, milliseconds, dimensions);
    } catch {
      /* metrics are best effort */
    }
  },
  flush() {
    try {
      recorder.flush();
    } catch {
      /* metrics are best effort */
    }
  },
};
