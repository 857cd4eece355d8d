// @vitest-environment node
/**
 * The CloudWatch alarms in the packaged template (the run’s shared production package) watch
 * metrics the code really emits: the same namespace, metric names, and exact dimensions
 * (service = the functions' POWERTOOLS_SERVICE_NAME), and notify the `alarmTopicArn` param.
 */
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { METRIC } from '../../lib/core/ports/metrics.js';
import { packageTemplate } from './package-template.js';
import { ALARM_TOPIC_ARN, PRODUCTION_STAGE, productionPackage, type SharedPackage } from './production-package.js';

const require = createRequire(import.meta.url);
const alarms = require('../../infra/serverless/alarms.cjs') as {
  alarmResources: (options: { service: string; stage: string; topicArn?: string }) => Record<string, { Properties: Record<string, unknown> }>;
  serverlessResources: (helpers: unknown) => Promise<unknown>;
};

const TOPIC = ALARM_TOPIC_ARN;
/** The functions' POWERTOOLS_SERVICE_NAME on the packaged stage. */
const SERVICE = `click-to-pay-${PRODUCTION_STAGE}`;
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

let packaged: SharedPackage | undefined;
let resources: Record<string, { Type: string; Properties: Json }> = {};

// The run's shared production package (production-package.ts), packaged with alarmTopicArn.
beforeAll(async () => {
  if (!packageTemplate.possible()) return;
  packaged = await productionPackage();
  resources = packaged.template.Resources;
}, 420_000);

const dims = (list: Array<{ Name: string; Value: unknown }>) => Object.fromEntries(list.map(({ Name, Value }) => [Name, Value]));

describe.skipIf(!packageTemplate.possible())('CloudWatch alarms in the packaged template', () => {
  const alarm = (id: string) => {
    const resource = resources[id];
    expect(resource, id).toBeDefined();
    expect(resource!.Type).toBe('AWS::CloudWatch::Alarm');
    return resource!.Properties;
  };

  it('every function emits to the namespace and service name the alarms watch, and metrics are not silenced', () => {
    const functions = Object.values(resources).filter((resource) => resource.Type === 'AWS::Lambda::Function');
    expect(functions.length).toBeGreaterThan(10);
    for (const fn of functions) {
      expect(fn.Properties.Environment.Variables).toMatchObject({
        POWERTOOLS_METRICS_NAMESPACE: 'ClickToPay',
        POWERTOOLS_SERVICE_NAME: SERVICE,
        POWERTOOLS_METRICS_DISABLED: 'false',
      });
    }
  });

  it('5xx rate: the HTTP API 5xx over its request count, only above a minimum of traffic', () => {
    const props = alarm('ApiServerErrorRateAlarm');
    const byId = Object.fromEntries(props.Metrics.map((m: Json) => [m.Id, m]));
    expect(byId.requests.MetricStat.Metric).toEqual({
      Namespace: 'AWS/ApiGateway',
      MetricName: 'Count',
      Dimensions: [{ Name: 'ApiId', Value: { Ref: 'HttpApi' } }],
    });
    expect(byId.errors.MetricStat.Metric).toMatchObject({ Namespace: 'AWS/ApiGateway', MetricName: '5xx' });
    expect(byId.rate.Expression).toBe('IF(requests >= 20, 100 * FILL(errors, 0) / requests, 0)');
    expect(byId.rate.ReturnData).toBe(true);
    expect(props).toMatchObject({
      Threshold: 5,
      ComparisonOperator: 'GreaterThanThreshold',
      AlarmActions: [TOPIC],
      OKActions: [TOPIC],
      TreatMissingData: 'notBreaching',
    });
    expect(resources.HttpApi?.Type).toBe('AWS::ApiGatewayV2::Api');
  });

  it('503 rate: ServerErrors code=DEPENDENCY_UNAVAILABLE over the API request count', () => {
    const props = alarm('ApiUnavailableRateAlarm');
    const errors = props.Metrics.find((m: Json) => m.Id === 'errors').MetricStat.Metric;
    expect(errors.Namespace).toBe('ClickToPay');
    expect(errors.MetricName).toBe(METRIC.serverErrors);
    expect(dims(errors.Dimensions)).toEqual({ service: SERVICE, code: 'DEPENDENCY_UNAVAILABLE' });
    expect(props.Threshold).toBe(2);
  });

  it.each([
    ['AuthorizerFailuresAlarm', METRIC.serverErrors, { code: 'AUTHORIZATION_UNAVAILABLE' }],
    ['KmsThrottlingAlarm', METRIC.dependencyErrors, { dependency: 'kms', reason: 'throttled' }],
    ['WebhookDeliveriesFailedAlarm', METRIC.webhookDeliveries, { outcome: 'failed' }],
    ['NetworkConfirmationsFailedAlarm', METRIC.networkConfirmations, { outcome: 'failed' }],
  ])('%s watches %s with exactly the emitted dimensions', (id, metricName, extra) => {
    const props = alarm(id);
    expect(props).toMatchObject({ Namespace: 'ClickToPay', MetricName: metricName, Statistic: 'Sum', Period: 60, AlarmActions: [TOPIC] });
    expect(dims(props.Dimensions)).toEqual({ service: SERVICE, ...extra });
  });

  it('webhook worker errors: the delivery function’s own Lambda Errors', () => {
    const props = alarm('WebhookWorkerErrorsAlarm');
    expect(props).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: 'WebhookDeliveryLambdaFunction' } }],
    });
    expect(resources.WebhookDeliveryLambdaFunction?.Type).toBe('AWS::Lambda::Function');
  });
});

describe('alarm definitions (no packaging)', () => {
  const helpers = (topic: string | null) => ({
    resolveConfigurationProperty: async () => 'click-to-pay',
    resolveVariable: async (name: string) => (name === 'sls:stage' ? 'prod' : topic),
  });

  it('without a topic the alarms exist and notify nobody', async () => {
    const { Resources } = (await alarms.serverlessResources(helpers(null))) as { Resources: Record<string, { Properties: Json }> };
    expect(Object.keys(Resources).sort()).toEqual([
      'ApiServerErrorRateAlarm',
      'ApiUnavailableRateAlarm',
      'AuthorizerFailuresAlarm',
      'KmsThrottlingAlarm',
      'NetworkConfirmationsFailedAlarm',
      'WebhookDeliveriesFailedAlarm',
      'WebhookWorkerErrorsAlarm',
    ]);
    for (const resource of Object.values(Resources)) {
      expect(resource.Properties.AlarmActions).toBeUndefined();
      expect(resource.Properties.AlarmName).toMatch(/^click-to-pay-prod-/);
    }
  });

  it('a topic that is not an SNS topic ARN is refused at package time', async () => {
    await expect(alarms.serverlessResources(helpers('https://hooks.example.com/x'))).rejects.toThrow(/alarmTopicArn must be an SNS topic ARN/);
  });
});
