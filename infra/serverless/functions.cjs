'use strict';

/**
 * Builds the serverless.yml `functions:` section from lib/http/routes.json (the one route
 * table). Used as `functions: ${file(./infra/serverless/functions.cjs)}`: the framework calls
 * the exported function and uses what it returns.
 *
 * - handler: functions/<dir>/handler.handler (serverless-esbuild resolves handler.ts)
 * - events: one `httpApi: { method, path }` per route (path parameters stay `{name}`, which is
 *   what HTTP APIs expect), plus the `fallback` function on `httpApi: '*'` (the $default route,
 *   which answers 404/405 from the same table)
 * - role: the IAM role of the function's access group (infra/serverless/iam.cjs)
 * - memory/timeout by access group; PUBLIC_BASE_URL only when the `publicBaseUrl` param is set
 * - optional variables of one access group only (a key URL belongs to the function that signs):
 *   SANDBOX_NETWORK_SIGNING_JWKS_URL (sandboxSrc), CLICK_TO_PAY_SDK_URLS and THREE_DS_ACS_ORIGINS
 *   (checkoutPage), PRODUCTION_ACQUIRER (payments, paymentsDecrypt, lifecycle) and
 *   SANDBOX_ACS_BASE_URL (payments, paymentsDecrypt, checkoutPage), THREE_DS_SERVER_URL and
 *   THREE_DS_SERVER_API_KEY_ARN (payments, paymentsDecrypt; the URL also checkoutPage), each only
 *   when its param is set
 * - WEBHOOK_SECRETS_KEY_ID for the webhookConfig group (which seals webhook signing secrets) and
 *   the webhookDelivery group (which opens them) only: this stack's webhook-secrets alias (iam.cjs)
 * - `package.patterns` of a routes.json entry (extra files, e.g. the built web page) become the
 *   function's package patterns; each must match a file, so a deployment can never ship the
 *   hosted page without its build (`npm run build:web` first)
 * - no source map in any zip (NO_SOURCE_MAPS): maps stay in the build folder (docs/operating/deploy.md)
 * - the sandbox functions (every route under /sandbox/) only on stages with the sandbox
 *   (infra/serverless/stage.cjs); the fallback's SANDBOX_ROUTES says whether they exist, so
 *   its 404/405 table matches the API (lib/http/route-table.ts)
 */

const path = require('node:path');
const fs = require('node:fs');
const { roleLogicalId, ACCESS_GROUPS, webhookSecretsKeyId } = require('./iam.cjs');
const { stageSettings } = require('./stage.cjs');

const ROUTES_FILE = path.join(__dirname, '..', '..', 'lib', 'http', 'routes.json');

/** Access groups that handle payments: bigger, slower (authorizer round trip). */
const PAYMENT_GROUPS = new Set(['payments', 'paymentsDecrypt', 'lifecycle']);
/** The authorizer timeout is 10 s (AUTHORIZER_TIMEOUT_MS); leave room for KMS/DynamoDB. */
const PAYMENT_TIMEOUT_SECONDS = 15;
/**
 * 4.3, 4.4, 4.10 may also step up through the 3DS Server in the same request (SPEC 4.17):
 * decrypt + /preauth 3 s + /auth 11 s (+ /postauth 3 s to recover a lost answer) + the
 * authorizer 10 s — within API Gateway's 30 s and under the 30 s payment lease.
 */
const STEP_UP_TIMEOUT_SECONDS = 28;
const STEP_UP_GROUPS = new Set(['payments', 'paymentsDecrypt']);
const DEFAULT_TIMEOUT_SECONDS = 6;
/** Background workers (webhook delivery): several 10 s sends per invocation. */
const WORKER_TIMEOUT_SECONDS = 60;

/**
 * The events of a function without routes: an EventBridge schedule and/or a DynamoDB stream.
 * The stream is filtered to items that carry a `dueAt` (an outbox to drain, an event to send),
 * so ordinary payment writes never invoke the worker. Its failures are not retried by Lambda
 * (the scheduled sweep of the `due` index is the guarantee), so a bad record never blocks a shard.
 */
function triggerEvents(entry) {
  const { schedule, stream } = entry.triggers ?? {};
  const events = [];
  if (schedule) {
    if (!/^rate\(\d+ (minute|minutes|hour|hours)\)$/.test(schedule))
      throw new Error(`routes.json: "${entry.name}" schedule "${schedule}" must be rate(N minutes)`);
    events.push({ schedule: { rate: [schedule] } });
  }
  if (stream) {
    events.push({
      stream: {
        type: 'dynamodb',
        arn: { 'Fn::GetAtt': [stream, 'StreamArn'] },
        startingPosition: 'LATEST',
        batchSize: 100,
        batchWindow: 1,
        maximumRetryAttempts: 0,
        filterPatterns: [{ dynamodb: { NewImage: { dueAt: { N: [{ exists: true }] } } } }],
      },
    });
  }
  return events;
}

const FALLBACK = Object.freeze({ name: 'fallback', dir: 'fallback', access: 'public' });
const SERVICE_DIR = path.join(__dirname, '..', '..');

/** The sandbox ACS's base URL: for the functions that start challenges, and the page's CSP. */
const SANDBOX_ACS = { sandboxAcsBaseUrl: 'SANDBOX_ACS_BASE_URL' };
/** The production 3DS Server (SPEC 4.17): for the functions that step payments up (lib/composition/config/three-ds-server-config.ts). */
const THREE_DS_SERVER = { threeDsServerUrl: 'THREE_DS_SERVER_URL', threeDsServerApiKeyArn: 'THREE_DS_SERVER_API_KEY_ARN' };
/** Optional variables given only to the functions of one access group: param → env var. */
const GROUP_ENVIRONMENT = Object.freeze({
  sandboxSrc: { sandboxNetworkSigningJwksUrl: 'SANDBOX_NETWORK_SIGNING_JWKS_URL' },
  // THREE_DS_SERVER_URL: with a production 3DS Server the page frames any https ACS (security-headers.ts).
  checkoutPage: {
    clickToPaySdkUrls: 'CLICK_TO_PAY_SDK_URLS',
    threeDsAcsOrigins: 'THREE_DS_ACS_ORIGINS',
    threeDsServerUrl: 'THREE_DS_SERVER_URL',
    ...SANDBOX_ACS,
  },
  // PRODUCTION_ACQUIRER: the functions that reach an acquirer (lib/composition/acquirers.ts).
  payments: { productionAcquirer: 'PRODUCTION_ACQUIRER', ...SANDBOX_ACS, ...THREE_DS_SERVER },
  // Network-assigned JWE key ids per payload key (docs/operating/keys.md, "Key ids the networks assign"): only 4.3 and 4.10 decrypt.
  paymentsDecrypt: { payloadKeyNetworkKids: 'PAYLOAD_KEY_NETWORK_KIDS', productionAcquirer: 'PRODUCTION_ACQUIRER', ...SANDBOX_ACS, ...THREE_DS_SERVER },
  lifecycle: { productionAcquirer: 'PRODUCTION_ACQUIRER' },
  // Mastercard confirmations (lib/composition/config/network-confirmations-config.ts): all three or none.
  webhookDelivery: {
    mastercardConfirmationsUrl: 'MASTERCARD_CONFIRMATIONS_URL',
    mastercardSrcClientId: 'MASTERCARD_SRC_CLIENT_ID',
    mastercardApiCredentialsParameterArn: 'MASTERCARD_API_CREDENTIALS_PARAMETER_ARN',
  },
});

/** Source maps never ship: read by --enable-source-maps they cost every cold start (docs/operating/deploy.md). */
const NO_SOURCE_MAPS = '!**/*.map';
const SANDBOX_PATH = /^[A-Z]+ \/sandbox\//;

/** True when every route of the entry is under /sandbox/; a function mixing both is refused. */
function isSandboxEntry(entry) {
  const sandboxRoutes = entry.routes.filter((route) => SANDBOX_PATH.test(route));
  if (sandboxRoutes.length > 0 && sandboxRoutes.length < entry.routes.length) {
    throw new Error(`routes.json: "${entry.name}" mixes /sandbox/ routes with others; a sandbox function has only /sandbox/ routes`);
  }
  return entry.routes.length > 0 && sandboxRoutes.length === entry.routes.length;
}

/** The entries deployed on a stage: without the sandbox, no /sandbox/ function at all. */
function deployedRouteTable(entries, { sandbox }) {
  const sandboxEntries = new Set(entries.filter(isSandboxEntry));
  return sandbox ? entries : entries.filter((entry) => !sandboxEntries.has(entry));
}

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

function functionConfig(entry, events, environment, serviceDir) {
  if (!ACCESS_GROUPS.includes(entry.access)) {
    throw new Error(`routes.json: function "${entry.name}" has unknown access "${entry.access}"`);
  }
  const payment = PAYMENT_GROUPS.has(entry.access);
  const env = { ...environment.all, ...environment.byGroup?.[entry.access] };
  const patterns = packagePatterns(entry, serviceDir);
  const worker = entry.triggers !== undefined;
  return {
    handler: `functions/${entry.dir}/handler.handler`,
    role: roleLogicalId(entry.access),
    memorySize: payment ? 1024 : 512,
    timeout: worker
      ? WORKER_TIMEOUT_SECONDS
      : STEP_UP_GROUPS.has(entry.access)
        ? STEP_UP_TIMEOUT_SECONDS
        : payment
          ? PAYMENT_TIMEOUT_SECONDS
          : DEFAULT_TIMEOUT_SECONDS,
    ...(Object.keys(env).length > 0 ? { environment: env } : {}),
    package: { patterns: [...patterns, NO_SOURCE_MAPS] },
    events,
  };
}

/** `web/dist/**` style patterns; each must match at least one file (built output is not in git). */
function packagePatterns(entry, serviceDir) {
  const patterns = entry.package?.patterns ?? [];
  for (const pattern of patterns) {
    const match = /^([A-Za-z0-9._/-]+)\/\*\*$/.exec(pattern);
    if (!match) throw new Error(`routes.json: "${entry.name}" package pattern "${pattern}" must look like dir/**`);
    const dir = path.join(serviceDir, match[1]);
    if (!fs.existsSync(dir) || fs.readdirSync(dir).length === 0) {
      throw new Error(`routes.json: "${entry.name}" ships ${pattern}, which is empty — run \`npm run build:web\` first`);
    }
  }
  return patterns;
}

/**
 * The `functions:` object, keyed by function name. `environment.all` is merged into every
 * function's own environment, `environment.byGroup[access]` into that group's (for optional
 * variables that must be absent, not empty, when unset: provider.environment cannot omit a
 * key conditionally).
 */
function buildFunctions(entries = loadRouteTable(), environment = {}, serviceDir = SERVICE_DIR) {
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
    events.push(...triggerEvents(entry));
    if (events.length === 0) throw new Error(`routes.json: function "${entry.name}" has neither routes nor triggers`);
    functions[entry.name] = functionConfig(entry, events, environment, serviceDir);
  }
  functions[FALLBACK.name] = functionConfig(FALLBACK, [{ httpApi: '*' }], environment, serviceDir);
  return functions;
}

/** `{ functionName: accessGroup }`, fallback included. */
function accessByFunction(entries = loadRouteTable()) {
  return { ...Object.fromEntries(entries.map((e) => [e.name, e.access])), [FALLBACK.name]: FALLBACK.access };
}

/**
 * Optional variables, set only when their stage param is: `publicBaseUrl` → PUBLIC_BASE_URL for
 * all functions, GROUP_ENVIRONMENT for one access group each; plus WEBHOOK_SECRETS_KEY_ID, always
 * set for the webhookConfig group.
 */
async function optionalEnvironment({ resolveVariable, resolveConfigurationProperty }) {
  const param = async (name) => {
    const value = await resolveVariable(`param:${name}, null`);
    return typeof value === 'string' && value.trim() ? value.trim() : undefined;
  };
  const publicBaseUrl = await param('publicBaseUrl');
  const byGroup = {};
  for (const [group, variables] of Object.entries(GROUP_ENVIRONMENT)) {
    for (const [name, envVar] of Object.entries(variables)) {
      const value = await param(name);
      if (value) byGroup[group] = { ...byGroup[group], [envVar]: value };
    }
  }
  const service = await resolveConfigurationProperty(['service']);
  const stage = await resolveVariable('sls:stage');
  const webhookSecrets = webhookSecretsKeyId(service, stage, await param('webhookSecretsKeyId'));
  byGroup.webhookConfig = { ...byGroup.webhookConfig, WEBHOOK_SECRETS_KEY_ID: webhookSecrets };
  // The delivery worker opens the secrets it signs with.
  byGroup.webhookDelivery = { ...byGroup.webhookDelivery, WEBHOOK_SECRETS_KEY_ID: webhookSecrets };
  return { all: publicBaseUrl ? { PUBLIC_BASE_URL: publicBaseUrl } : {}, byGroup };
}

/** serverless.yml `functions:` — the stage's route table; the fallback knows whether /sandbox/* exists. */
async function serverlessFunctions(helpers) {
  const { sandbox } = await stageSettings(helpers);
  const functions = buildFunctions(deployedRouteTable(loadRouteTable(), { sandbox }), await optionalEnvironment(helpers));
  const fallback = functions[FALLBACK.name];
  fallback.environment = { ...fallback.environment, SANDBOX_ROUTES: sandbox ? 'deployed' : 'absent' };
  return functions;
}

// Serverless `${file(...)}` calls a function export with its resolver helpers.
module.exports = serverlessFunctions;
module.exports.buildFunctions = buildFunctions;
module.exports.accessByFunction = accessByFunction;
module.exports.GROUP_ENVIRONMENT = GROUP_ENVIRONMENT;
module.exports.loadRouteTable = loadRouteTable;
module.exports.isSandboxEntry = isSandboxEntry;
module.exports.deployedRouteTable = deployedRouteTable;
module.exports.NO_SOURCE_MAPS = NO_SOURCE_MAPS;
module.exports.FALLBACK = FALLBACK;
