'use strict';

/**
 * Builds the serverless.yml `functions:` section from functions/routes.json (the one route
 * table). Used as `functions: ${file(./infra/serverless/functions.cjs)}`: the framework calls
 * the exported function and uses what it returns.
 *
 * - handler: functions/<dir>/handler.handler (serverless-esbuild resolves handler.ts)
 * - events: one `httpApi: { method, path }` per route (path parameters stay `{name}`, which is
 *   what HTTP APIs expect), plus the `fallback` function on `httpApi: '*'` (the $default route,
 *   which answers 404/405 from the same table)
 * - role: the IAM role of the function's access group (infra/serverless/iam.cjs)
 * - memory/timeout by access group; PUBLIC_BASE_URL only when the `publicBaseUrl` param is set
 */

const path = require('node:path');
const fs = require('node:fs');
const { roleLogicalId, ACCESS_GROUPS } = require('./iam.cjs');

const ROUTES_FILE = path.join(__dirname, '..', '..', 'functions', 'routes.json');

/** Access groups that handle payments: bigger, slower (authorizer round trip). */
const PAYMENT_GROUPS = new Set(['payments', 'paymentsDecrypt']);
/** The authorizer timeout is 10 s (AUTHORIZER_TIMEOUT_MS); leave room for KMS/DynamoDB. */
const PAYMENT_TIMEOUT_SECONDS = 15;
const DEFAULT_TIMEOUT_SECONDS = 6;

const FALLBACK = Object.freeze({ name: 'fallback', dir: 'fallback', access: 'public' });

function loadRouteTable(file = ROUTES_FILE) {
  const table = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!table || !Array.isArray(table.functions)) throw new Error(`${file}: expected { "functions": [...] }`);
  return table.functions;
}

function parseRoute(route) {
  const match = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (\/\S*)$/.exec(route);
  if (!match) throw new Error(`routes.json: invalid route "${route}" (expected "METHOD /path")`);
  return { method: match[1], path: match[2] };
}

function functionConfig(entry, events, environment) {
  if (!ACCESS_GROUPS.includes(entry.access)) {
    throw new Error(`routes.json: function "${entry.name}" has unknown access "${entry.access}"`);
  }
  const payment = PAYMENT_GROUPS.has(entry.access);
  return {
    handler: `functions/${entry.dir}/handler.handler`,
    role: roleLogicalId(entry.access),
    memorySize: payment ? 1024 : 512,
    timeout: payment ? PAYMENT_TIMEOUT_SECONDS : DEFAULT_TIMEOUT_SECONDS,
    ...(environment && Object.keys(environment).length > 0 ? { environment: { ...environment } } : {}),
    events,
  };
}

/**
 * The `functions:` object, keyed by function name. `environment` is merged into every
 * function's own environment (for optional variables that must be absent, not empty, when
 * unset: provider.environment cannot omit a key conditionally).
 */
function buildFunctions(entries = loadRouteTable(), environment = {}) {
  const functions = {};
  const seenRoutes = new Set();
  for (const entry of entries) {
    if (!/^[A-Za-z][A-Za-z0-9]*$/.test(entry.name)) throw new Error(`routes.json: invalid function name "${entry.name}"`);
    if (!/^[a-z0-9-]+$/.test(entry.dir)) throw new Error(`routes.json: invalid dir "${entry.dir}"`);
    if (entry.name in functions || entry.name === FALLBACK.name) throw new Error(`routes.json: duplicate function "${entry.name}"`);
    const events = entry.routes.map((route) => {
      if (seenRoutes.has(route)) throw new Error(`routes.json: duplicate route "${route}"`);
      seenRoutes.add(route);
      return { httpApi: parseRoute(route) };
    });
    functions[entry.name] = functionConfig(entry, events, environment);
  }
  functions[FALLBACK.name] = functionConfig(FALLBACK, [{ httpApi: '*' }], environment);
  return functions;
}

/** `{ functionName: accessGroup }`, fallback included. */
function accessByFunction(entries = loadRouteTable()) {
  return { ...Object.fromEntries(entries.map((e) => [e.name, e.access])), [FALLBACK.name]: FALLBACK.access };
}

/** Optional variables, set only when their stage param is: `publicBaseUrl` → PUBLIC_BASE_URL. */
async function optionalEnvironment({ resolveVariable }) {
  const publicBaseUrl = await resolveVariable('param:publicBaseUrl, null');
  return typeof publicBaseUrl === 'string' && publicBaseUrl.trim() ? { PUBLIC_BASE_URL: publicBaseUrl.trim() } : {};
}

// Serverless `${file(...)}` calls a function export with its resolver helpers.
module.exports = async (helpers) => buildFunctions(loadRouteTable(), await optionalEnvironment(helpers));
module.exports.buildFunctions = buildFunctions;
module.exports.accessByFunction = accessByFunction;
module.exports.loadRouteTable = loadRouteTable;
module.exports.FALLBACK = FALLBACK;
