import { MetricUnit, Metrics } from '@aws-lambda-powertools/metrics';
import { useMetricsRecorder, type Dimensions, type MetricName, type MetricsRecorder } from '../../core/ports/metrics.js';

export const DEFAULT_NAMESPACE = 'ClickToPay';
export const DEFAULT_SERVICE = 'click-to-pay';

type Unit = (typeof MetricUnit)[keyof typeof MetricUnit];
interface Group {
  dimensions: Dimensions;
  values: Array<{ name: MetricName; unit: Unit; value: number }>;
}

/**
 * The Powertools adapter behind the metrics port: CloudWatch Embedded Metric Format, one JSON
 * line on stdout per dimension set, which CloudWatch turns into metrics with no API call (and
 * no latency) in the request. Powertools gives every line the same dimensions, so what an
 * invocation records is grouped by its dimension set here and each group published on its
 * own; `service` (POWERTOOLS_SERVICE_NAME) is on every metric.
 *
 * Powertools writes nothing when POWERTOOLS_DEV is set unless POWERTOOLS_METRICS_DISABLED is
 * "false": serverless.yml sets that, so the lines appear in the local log as in Lambda's.
 */
export class EmfRecorder implements MetricsRecorder {
  private groups = new Map<string, Group>();

  constructor(
    private readonly powertools: Metrics = new Metrics({
      namespace: process.env.POWERTOOLS_METRICS_NAMESPACE || DEFAULT_NAMESPACE,
      serviceName: process.env.POWERTOOLS_SERVICE_NAME || DEFAULT_SERVICE,
    }),
  ) {}

  count(name: MetricName, dimensions: Dimensions = {}, value = 1): void {
    this.group(dimensions).values.push({ name, unit: MetricUnit.Count, value });
  }

  timing(name: MetricName, milliseconds: number, dimensions: Dimensions = {}): void {
    this.group(dimensions).values.push({ name, unit: MetricUnit.Milliseconds, value: Math.max(0, Math.round(milliseconds)) });
  }

  flush(): void {
    const groups = [...this.groups.values()];
    this.groups = new Map();
    for (const { dimensions, values } of groups) {
      for (const [key, value] of Object.entries(dimensions)) this.powertools.addDimension(key, value);
      for (const metric of values) this.powertools.addMetric(metric.name, metric.unit, metric.value);
      this.powertools.publishStoredMetrics(); // also clears this group's dimensions
    }
  }

  private group(dimensions: Dimensions): Group {
    const key = JSON.stringify(Object.entries(dimensions).sort(([a], [b]) => a.localeCompare(b)));
    let group = this.groups.get(key);
    if (!group) {
      group = { dimensions, values: [] };
      this.groups.set(key, group);
    }
    return group;
  }
}

/** Installed once per function instance: importing this module is what turns metrics on. */
export const emfRecorder = new EmfRecorder();
useMetricsRecorder(emfRecorder);
