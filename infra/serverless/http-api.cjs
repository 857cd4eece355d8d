'use strict';

const { refuse } = require('./refusal.cjs');

/**
 * HTTP API settings that serverless.yml cannot express by itself.
 *
 * - `provider.httpApi.cors: ${file(./infra/serverless/http-api.cjs):serverlessCors}`
 *   CORS from the `corsAllowedOrigins` param: a comma-separated list of exact origins
 *   (`https://shop.example.com`; `http:` only for a loopback host). Unset or empty = no CORS
 *   configuration at all: the hosted checkout page is served by this API (same origin) and
 *   needs none. `*`, `null` and anything that is not a bare origin fail the packaging.
 * - `resources: - extensions: ${file(./infra/serverless/http-api.cjs):serverlessStageExtensions}`
 *   throttling on the HTTP API's `$default` stage, which osls has no option for: the stage
 *   default (DefaultRouteSettings) from the `throttlingRateLimit`/`throttlingBurstLimit` params,
 *   and tighter RouteSettings for the sandbox routes where the sandbox is deployed. The stage
 *   depends on those routes: API Gateway refuses RouteSettings for a route key that does not
 *   exist yet.
 * - `provider.logs.httpApi.format: ${file(./infra/serverless/http-api.cjs):serverlessAccessLogFormat}`
 *   JSON access logs (osls creates the log group with provider.logRetentionInDays). The route
 *   key only, never the path or the URI with its query: the checkout link carries the session
 *   token in `?session=`, and a path is whatever the caller sent.
 */

const naming = require('osls/lib/plugins/aws/lib/naming.js');
const { deployedRouteTable, loadRouteTable } = require('./route-table.cjs');
const { stageSettings } = require('./stage.cjs');

/**
 * One access-log line per request. No query string, no headers, no authorizer data: nothing
 * here may carry a token. Not the path either: these lines never pass the service's logger and
 * its card-number redaction, and a caller chooses the path (a 16-digit "orderRef", or anything
 * the $default route catches). routeKey names the route template instead.
 */
const ACCESS_LOG_FIELDS = Object.freeze({
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  httpMethod: '$context.httpMethod',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  errorMessage: '$context.error.message',
});

/** serverless.yml: `provider.logs.httpApi.format` */
function serverlessAccessLogFormat() {
  return JSON.stringify(ACCESS_LOG_FIELDS);
}

/**
 * Stage-wide default: under KMS's shared RSA request quota (500/s for Decrypt and friends) and
 * the default 1,000 concurrent Lambdas, so overload is a 429 at the edge before it is a KMS
 * throttle inside a payment. Raise both params with those quotas.
 */
const DEFAULT_THROTTLING = Object.freeze({ rate: 200, burst: 400 });

/** `throttlingRateLimit` / `throttlingBurstLimit` params → positive integers, burst ≥ rate. */
function stageThrottling(rateParam, burstParam) {
  const parse = (name, value, fallback) => {
    if (value === undefined || value === null || value === '') return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) refuse(`The ${name} param must be a positive integer, not "${value}"`);
    return n;
  };
  const rate = parse('throttlingRateLimit', rateParam, DEFAULT_THROTTLING.rate);
  const burst = parse('throttlingBurstLimit', burstParam, DEFAULT_THROTTLING.burst);
  if (burst < rate) refuse(`The throttlingBurstLimit param (${burst}) must be at least throttlingRateLimit (${rate})`);
  return { rate, burst };
}

/** Requests per second (steady) and burst, per route, for everyone together (API Gateway throttling is not per client). */
const SANDBOX_THROTTLING = Object.freeze({
  default: { rate: 20, burst: 40 },
  'POST /sandbox/src/init': { rate: 5, burst: 10 },
  'POST /sandbox/src/identity-lookup': { rate: 5, burst: 10 },
  'POST /sandbox/src/otp/validate': { rate: 5, burst: 10 },
  'POST /sandbox/src/otp/resend': { rate: 2, burst: 5 },
});

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** `corsAllowedOrigins` → the exact origins, validated; throws with the offending value's position only. */
function parseAllowedOrigins(value) {
  if (value === undefined || value === null) return [];
  const items = String(value)
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items.map((item, index) => {
    const where = `corsAllowedOrigins item ${index + 1}`;
    if (item === '*' || item.toLowerCase() === 'null') refuse(`${where}: "*" and "null" are never allowed origins`);
    let url;
    try {
      url = new URL(item);
    } catch {
      refuse(`${where}: not a URL origin such as https://shop.example.com`);
    }
    const loopback = url.protocol === 'http:' && LOOPBACK.has(url.hostname);
    if (url.protocol !== 'https:' && !loopback) refuse(`${where}: must be https (http only for a loopback host)`);
    if (url.origin !== item) refuse(`${where}: must be a bare origin (scheme://host[:port], no path or trailing slash)`);
    return url.origin;
  });
}

function corsConfig(origins) {
  if (origins.length === 0) return false;
  return {
    allowedOrigins: [...new Set(origins)],
    allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key'],
    allowedMethods: ['GET', 'POST', 'PUT', 'OPTIONS'],
    exposedResponseHeaders: ['Location', 'Allow', 'Retry-After', 'X-Request-Id', 'Idempotent-Replayed'],
    maxAge: 600,
  };
}

/** serverless.yml: `provider.httpApi.cors` */
async function serverlessCors({ resolveVariable }) {
  const legacy = await resolveVariable('param:corsAllowedOrigin, null');
  if (legacy !== null && legacy !== undefined) {
    refuse('The corsAllowedOrigin param is gone: pass corsAllowedOrigins (a comma-separated list of origins; empty = no CORS)');
  }
  return corsConfig(parseAllowedOrigins(await resolveVariable('param:corsAllowedOrigins, null')));
}

/** The sandbox routes of the route table (lib/http/routes.ts) with their throttling. */
function sandboxRouteSettings(routeTable = loadRouteTable()) {
  const routeKeys = routeTable
    .flatMap((entry) => entry.routes)
    .filter((route) => / \/sandbox\//.test(route))
    .sort();
  const settings = {};
  for (const routeKey of routeKeys) {
    const { rate, burst } = SANDBOX_THROTTLING[routeKey] ?? SANDBOX_THROTTLING.default;
    settings[routeKey] = { ThrottlingRateLimit: rate, ThrottlingBurstLimit: burst };
  }
  return settings;
}

/**
 * serverless.yml: `resources: - extensions: …` — DefaultRouteSettings and the sandbox
 * RouteSettings on HttpApiStage, after its routes. Extensions replace a property whole, so
 * osls' own DetailedMetricsEnabled (provider.httpApi.metrics) is carried over.
 */
async function serverlessStageExtensions(helpers) {
  const { sandbox } = await stageSettings(helpers);
  const settings = sandboxRouteSettings(deployedRouteTable(loadRouteTable(), { sandbox }));
  const { rate, burst } = stageThrottling(
    await helpers.resolveVariable('param:throttlingRateLimit, null'),
    await helpers.resolveVariable('param:throttlingBurstLimit, null'),
  );
  const metrics = await helpers.resolveConfigurationProperty(['provider', 'httpApi', 'metrics']);
  return {
    [naming.getHttpApiStageLogicalId()]: {
      Properties: {
        DefaultRouteSettings: {
          ...(typeof metrics === 'boolean' ? { DetailedMetricsEnabled: metrics } : {}),
          ThrottlingRateLimit: rate,
          ThrottlingBurstLimit: burst,
        },
        ...(Object.keys(settings).length > 0 ? { RouteSettings: settings } : {}),
      },
      DependsOn: Object.keys(settings).map((routeKey) => naming.getHttpApiRouteLogicalId(routeKey)),
    },
  };
}

module.exports = {
  ACCESS_LOG_FIELDS,
  DEFAULT_THROTTLING,
  SANDBOX_THROTTLING,
  serverlessAccessLogFormat,
  stageThrottling,
  parseAllowedOrigins,
  corsConfig,
  sandboxRouteSettings,
  serverlessCors,
  serverlessStageExtensions,
};
