'use strict';

const { refuse } = require('./refusal.cjs');
/**
 * CloudWatch alarms of the service (issue 11 item 3), from serverless.yml:
 *   resources:
 *     - ${file(./infra/serverless/alarms.cjs):serverlessResources}
 *
 * Every alarm watches either the HTTP API's own metrics (AWS/ApiGateway: Count, 5xx) or the
 * service's EMF metrics (lib/core/ports/metrics.ts), namespace ClickToPay, whose `service`
 * dimension is `<service>-<stage>` (POWERTOOLS_SERVICE_NAME in serverless.yml): an alarm's
 * dimensions must match the emitted ones exactly, so both come from `metricsServiceName`.
 * Optional param `alarmTopicArn`: an SNS topic notified on ALARM and OK; unset = the alarms
 * exist (console, dashboards) but notify nobody.
 */
const naming = require('osls/lib/plugins/aws/lib/naming.js');

const NAMESPACE = 'ClickToPay';
/** Rates are only computed over at least this many requests a minute: 1 error in 2 is no outage. */
const MIN_REQUESTS_PER_MINUTE = 20;

const metricsServiceName = (service, stage) => `${service}-${stage}`;

function apiMetric(id, metricName) {
  return {
    Id: id,
    ReturnData: false,
    MetricStat: {
      Metric: { Namespace: 'AWS/ApiGateway', MetricName: metricName, Dimensions: [{ Name: 'ApiId', Value: { Ref: naming.getHttpApiLogicalId() } }] },
      Period: 60,
      Stat: 'Sum',
    },
  };
}

function serviceMetric(id, metricName, serviceName, dimensions) {
  return {
    Id: id,
    ReturnData: false,
    MetricStat: {
      Metric: {
        Namespace: NAMESPACE,
        MetricName: metricName,
        Dimensions: [{ Name: 'service', Value: serviceName }, ...Object.entries(dimensions).map(([Name, Value]) => ({ Name, Value }))],
      },
      Period: 60,
      Stat: 'Sum',
    },
  };
}

/** errors / requests in percent, 0 while traffic is too thin for a rate to mean anything. */
function rateAlarm({ name, description, errors, thresholdPercent, actions }) {
  return {
    Type: 'AWS::CloudWatch::Alarm',
    Properties: {
      AlarmName: name,
      AlarmDescription: description,
      Metrics: [
        apiMetric('requests', 'Count'),
        errors,
        {
          Id: 'rate',
          Label: 'percent of requests',
          ReturnData: true,
          Expression: `IF(requests >= ${MIN_REQUESTS_PER_MINUTE}, 100 * FILL(errors, 0) / requests, 0)`,
        },
      ],
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: thresholdPercent,
      EvaluationPeriods: 5,
      DatapointsToAlarm: 3,
      TreatMissingData: 'notBreaching',
      ...actions,
    },
  };
}

/** A count over one-minute periods: `datapoints` of the last `periods` minutes at or above `threshold`. */
function countAlarm({ name, description, metric, threshold, periods, datapoints, actions }) {
  const { Metric, Period, Stat } = metric.MetricStat;
  return {
    Type: 'AWS::CloudWatch::Alarm',
    Properties: {
      AlarmName: name,
      AlarmDescription: description,
      Namespace: Metric.Namespace,
      MetricName: Metric.MetricName,
      Dimensions: Metric.Dimensions,
      Period,
      Statistic: Stat,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Threshold: threshold,
      EvaluationPeriods: periods,
      DatapointsToAlarm: datapoints,
      TreatMissingData: 'notBreaching',
      ...actions,
    },
  };
}

/** The alarms for one stack; pure, so the unit test and the packaged template agree. */
function alarmResources({ service, stage, topicArn }) {
  const serviceName = metricsServiceName(service, stage);
  const prefix = `${service}-${stage}`;
  const actions = topicArn ? { AlarmActions: [topicArn], OKActions: [topicArn] } : {};
  const webhookFunction = { Ref: naming.getLambdaLogicalId('webhookDelivery') };
  return {
    ApiServerErrorRateAlarm: rateAlarm({
      name: `${prefix}-api-5xx-rate`,
      description: 'More than 5% of API requests answered 5xx (HTTP API 5xx / Count) in 3 of 5 minutes.',
      errors: apiMetric('errors', '5xx'),
      thresholdPercent: 5,
      actions,
    }),
    ApiUnavailableRateAlarm: rateAlarm({
      name: `${prefix}-api-503-rate`,
      description:
        'More than 2% of API requests answered 503 DEPENDENCY_UNAVAILABLE (DynamoDB or KMS throttled, slow or down) in 3 of 5 minutes. See DependencyErrors by dependency and reason.',
      errors: serviceMetric('errors', 'ServerErrors', serviceName, { code: 'DEPENDENCY_UNAVAILABLE' }),
      thresholdPercent: 2,
      actions,
    }),
    AuthorizerFailuresAlarm: countAlarm({
      name: `${prefix}-authorizer-failures`,
      description: 'The acquirer did not answer (502 AUTHORIZATION_UNAVAILABLE) 5 or more times a minute in 3 of 5 minutes.',
      metric: serviceMetric('m', 'ServerErrors', serviceName, { code: 'AUTHORIZATION_UNAVAILABLE' }),
      threshold: 5,
      periods: 5,
      datapoints: 3,
      actions,
    }),
    KmsThrottlingAlarm: countAlarm({
      name: `${prefix}-kms-throttling`,
      description:
        'KMS throttled calls (ThrottlingException → 503) in 2 of 3 minutes: the account-wide RSA request quota (docs/operating/scale-plan.md) is reached.',
      metric: serviceMetric('m', 'DependencyErrors', serviceName, { dependency: 'kms', reason: 'throttled' }),
      threshold: 1,
      periods: 3,
      datapoints: 2,
      actions,
    }),
    WebhookDeliveriesFailedAlarm: countAlarm({
      name: `${prefix}-webhook-deliveries-failed`,
      description: 'A webhook event ran out of retries (FAILED, after more than 24 h of attempts): a merchant missed an event.',
      metric: serviceMetric('m', 'WebhookDeliveries', serviceName, { outcome: 'failed' }),
      threshold: 1,
      periods: 1,
      datapoints: 1,
      actions,
    }),
    NetworkConfirmationsFailedAlarm: countAlarm({
      name: `${prefix}-network-confirmations-failed`,
      description:
        'A Mastercard confirmation ran out of retries (FAILED, after more than 24 h of attempts, or no client configured for its network): Mastercard never learned an outcome (docs/integrating/network-confirmations.md).',
      metric: serviceMetric('m', 'NetworkConfirmations', serviceName, { outcome: 'failed' }),
      threshold: 1,
      periods: 1,
      datapoints: 1,
      actions,
    }),
    WebhookWorkerErrorsAlarm: {
      Type: 'AWS::CloudWatch::Alarm',
      Properties: {
        AlarmName: `${prefix}-webhook-worker-errors`,
        AlarmDescription: 'The webhook delivery function failed in 5 consecutive minutes: the backlog of due events is not being worked off.',
        Namespace: 'AWS/Lambda',
        MetricName: 'Errors',
        Dimensions: [{ Name: 'FunctionName', Value: webhookFunction }],
        Period: 60,
        Statistic: 'Sum',
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        Threshold: 1,
        EvaluationPeriods: 5,
        DatapointsToAlarm: 5,
        TreatMissingData: 'notBreaching',
        ...actions,
      },
    },
  };
}

/** serverless.yml: `resources: - ${file(./infra/serverless/alarms.cjs):serverlessResources}` */
async function serverlessResources({ resolveConfigurationProperty, resolveVariable }) {
  const service = await resolveConfigurationProperty(['service']);
  const stage = await resolveVariable('sls:stage');
  const param = await resolveVariable('param:alarmTopicArn, null');
  const topicArn = typeof param === 'string' && param.trim() ? param.trim() : undefined;
  if (topicArn && !/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/.test(topicArn)) {
    refuse(`alarmTopicArn must be an SNS topic ARN, got ${JSON.stringify(topicArn)}`);
  }
  return { Resources: alarmResources({ service, stage, topicArn }) };
}

module.exports = { NAMESPACE, metricsServiceName, alarmResources, serverlessResources };
