'use strict';

/**
 * HTTP API settings that serverless.yml cannot express by itself.
 *
 * - `provider.httpApi.cors: ${file(./infra/serverless/http-api.cjs):serverlessCors}`
 *   CORS from the `corsAllowedOrigins` param: a comma-separated list of exact origins
 *   (`https://shop.example.com`; `http:` only for a loopback host). Unset or empty = no CORS
 *   configuration at all: the hosted checkout page is served by this API (same origin) and
 *   needs none. `*`, `null` and anything that is not a bare origin fail the packaging.
 * - `resources: - extensions: ${file(./infra/serverless/http-api.cjs):serverlessStageExtensions}`
 *   route-level throttling of the sandbox routes on the HTTP API's `$default` stage
 *   (RouteSettings), which osls has no option for. The stage depends on those routes: API
 *   Gateway refuses RouteSettings for a route key that does not exist yet.
 */

const naming = require('osls/lib/plugins/aws/lib/naming.js');
const { loadRouteTable } = require('./functions.cjs');

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
    if (item === '*' || item.toLowerCase() === 'null') throw new Error(`${where}: "*" and "null" are never allowed origins`);
    let url;
    try {
      url = new URL(item);
    } catch {
      throw new Error(`${where}: not a URL origin such as https://shop.example.com`);
    }
    const loopback = url.protocol === 'http:' && LOOPBACK.has(url.hostname);
    if (url.protocol !== 'https:' && !loopback) throw new Error(`${where}: must be https (http only for a loopback host)`);
    if (url.origin !== item) throw new Error(`${where}: must be a bare origin (scheme://host[:port], no path or trailing slash)`);
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
    throw new Error('The corsAllowedOrigin param is gone: pass corsAllowedOrigins (a comma-separated list of origins; empty = no CORS)');
  }
  return corsConfig(parseAllowedOrigins(await resolveVariable('param:corsAllowedOrigins, null')));
}

/** The sandbox routes of routes.json with their throttling. */
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

/** serverless.yml: `resources: - extensions: …` — RouteSettings on HttpApiStage, after its routes. */
async function serverlessStageExtensions() {
  const settings = sandboxRouteSettings();
  return {
    [naming.getHttpApiStageLogicalId()]: {
      Properties: { RouteSettings: settings },
      DependsOn: Object.keys(settings).map((routeKey) => naming.getHttpApiRouteLogicalId(routeKey)),
    },
  };
}

module.exports = {
  SANDBOX_THROTTLING,
  parseAllowedOrigins,
  corsConfig,
  sandboxRouteSettings,
  serverlessCors,
  serverlessStageExtensions,
};
