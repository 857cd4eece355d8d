'use strict';

const { refuse } = require('./refusal.cjs');

/**
 * Builds the serverless.yml `functions:` section from the route table (lib/http/routes.ts,
 * read through ./route-table.cjs). Used as `functions: ${file(./infra/serverless/functions.cjs)}`:
 * the framework calls the exported function and uses what it returns.
 *
 * - handler: functions/<dir>/handler.handler (serverless-esbuild resolves handler.ts)
 * - events: one `httpApi: { method, path }` per route (path parameters stay `{name}`, which is
 *   what HTTP APIs expect); the `catchAll` entry (the fallback) on `httpApi: '*'` (the $default
 *   route, which answers 404/405 from the same table); `triggers` become a schedule and a stream
 * - role: the IAM role the entry names (infra/serverless/iam.cjs)
 * - memory/timeout by role; PUBLIC_BASE_URL only when the `publicBaseUrl` param is set
 * - optional variables of one role only (a key URL belongs to the function that signs):
 *   SANDBOX_NETWORK_SIGNING_JWKS_URL (sandboxSrc), CLICK_TO_PAY_SDK_URLS and THREE_DS_ACS_ORIGINS
 *   (checkoutPage), PRODUCTION_ACQUIRER (payments, paymentsDecrypt, lifecycle, configWrite),
 *   SANDBOX_ACS_BASE_URL (payments, paymentsDecrypt, checkoutPage), THREE_DS_SERVER_URL and
 *   THREE_DS_SERVER_API_KEY_ARN (payments, paymentsDecrypt; the URL also checkoutPage), each only
 *   when its param is set
 * - SANDBOX_TABLE (the sandbox's own table, infra/tables.cjs) only on stages with the sandbox, and
 *   only for the roles that reach it (iam.cjs SANDBOX_TABLE_ACCESS): the sandbox functions and
 *   the functions that call the sandbox acquirer or start a sandbox 3DS challenge
 * - WEBHOOK_SECRETS_KEY_ID for the webhookConfig role (which seals webhook signing secrets) and
 *   the webhookDelivery role (which opens them) only: this stack's webhook-secrets alias (iam.cjs)
 * - PROCESSOR_SECRETS_PREFIX for the configWrite role (onboarding): the name prefix of the
 *   processor secrets the payment, lifecycle and notification roles may read (iam.cjs)
 * - `package.patterns` of an entry (extra files, e.g. the built web page) become the
 *   function's package patterns; each must match a file, so a deployment can never ship the
 *   hosted page without its build (`npm run build:web` first)
 * - no source map in any zip (NO_SOURCE_MAPS): maps stay in the build folder (docs/operating/deploy.md)
 * - the sandbox functions (every route under /sandbox/) only on stages with the sandbox
 *   (infra/serverless/stage.cjs); the fallback's SANDBOX_ROUTES says whether they exist, so
 *   its 404/405 table matches the API (lib/http/route-table.ts)
 */

const path = require('node:path');
const fs = require('node:fs');
const { roleLogicalId, SANDBOX_TABLE_ACCESS, webhookSecretsKeyId, processorSecretsPrefix } = require('./iam.cjs');
const { table, tableName } = require('../tables.cjs');
const { deployedRouteTable, loadRouteTable, parseRoute } = require('./route-table.cjs');
const { stageSettings } = require('./stage.cjs');

/** Roles that handle payments: bigger, slower (authorizer round trip). */
const PAYMENT_ROLES = new Set(['payments', 'paymentsDecrypt', 'lifecycle', 'processorNotifications']);
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
      throw new Error(`lib/http/routes.ts: "${entry.name}" schedule "${schedule}" must be rate(N minutes)`);
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

const SERVICE_DIR = path.join(__dirname, '..', '..');

/** The sandbox ACS's base URL: for the functions that start challenges, and the page's CSP. */
const SANDBOX_ACS = { sandboxAcsBaseUrl: 'SANDBOX_ACS_BASE_URL' };
/** The production 3DS Server (SPEC 4.17): for the functions that step payments up (lib/composition/config/three-ds-server-config.ts). */
const THREE_DS_SERVER = { threeDsServerUrl: 'THREE_DS_SERVER_URL', threeDsServerApiKeyArn: 'THREE_DS_SERVER_API_KEY_ARN' };
/** Optional variables given only to the functions of one role: param → env var. */
const ROLE_ENVIRONMENT = Object.freeze({
  sandboxSrc: { sandboxNetworkSigningJwksUrl: 'SANDBOX_NETWORK_SIGNING_JWKS_URL' },
  // THREE_DS_SERVER_URL: with a production 3DS Server the page frames any https ACS (security-headers.ts).
  checkoutPage: {
    clickToPaySdkUrls: 'CLICK_TO_PAY_SDK_URLS',
    threeDsAcsOrigins: 'THREE_DS_ACS_ORIGINS',
    threeDsServerUrl: 'THREE_DS_SERVER_URL',
    ...SANDBOX_ACS,
  },
  // PRODUCTION_ACQUIRER: the functions that reach an acquirer (lib/composition/acquirers.ts), and
  // onboarding, which lets a production merchant name the sandbox acquirer only where it is set.
  configWrite: { productionAcquirer: 'PRODUCTION_ACQUIRER' },
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

function functionConfig(entry, events, environment, serviceDir) {
  const payment = PAYMENT_ROLES.has(entry.role);
  const env = { ...environment.all, ...environment.byRole?.[entry.role] };
  const patterns = packagePatterns(entry, serviceDir);
  const worker = entry.triggers !== undefined;
  return {
    handler: `functions/${entry.dir}/handler.handler`,
    role: roleLogicalId(entry.role),
    memorySize: payment ? 1024 : 512,
    timeout: worker
      ? WORKER_TIMEOUT_SECONDS
      : STEP_UP_GROUPS.has(entry.role)
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
    if (!match) throw new Error(`lib/http/routes.ts: "${entry.name}" package pattern "${pattern}" must look like dir/**`);
    const dir = path.join(serviceDir, match[1]);
    if (!fs.existsSync(dir) || fs.readdirSync(dir).length === 0) {
      refuse(`lib/http/routes.ts: "${entry.name}" ships ${pattern}, which is empty — run \`npm run build:web\` first`);
    }
  }
  return patterns;
}

/**
 * The `functions:` object, keyed by function name. `environment.all` is merged into every
 * function's own environment, `environment.byRole[role]` into that role's functions' (for
 * optional variables that must be absent, not empty, when unset: provider.environment cannot
 * omit a key conditionally).
 */
function buildFunctions(entries = loadRouteTable(), environment = {}, serviceDir = SERVICE_DIR) {
  const functions = {};
  for (const entry of entries) {
    const events = entry.catchAll ? [{ httpApi: '*' }] : entry.routes.map((route) => ({ httpApi: parseRoute(route) }));
    events.push(...triggerEvents(entry));
    functions[entry.name] = functionConfig(entry, events, environment, serviceDir);
  }
  return functions;
}

/**
 * Optional variables, set only when their stage param is: `publicBaseUrl` → PUBLIC_BASE_URL for
 * all functions, ROLE_ENVIRONMENT for one role each; plus WEBHOOK_SECRETS_KEY_ID, always
 * set for the webhookConfig and webhookDelivery roles, and SANDBOX_TABLE where the stage has it.
 */
async function optionalEnvironment({ resolveVariable, resolveConfigurationProperty }, { sandbox }) {
  const param = async (name) => {
    const value = await resolveVariable(`param:${name}, null`);
    return typeof value === 'string' && value.trim() ? value.trim() : undefined;
  };
  const publicBaseUrl = await param('publicBaseUrl');
  const byRole = {};
  for (const [role, variables] of Object.entries(ROLE_ENVIRONMENT)) {
    for (const [name, envVar] of Object.entries(variables)) {
      const value = await param(name);
      if (value) byRole[role] = { ...byRole[role], [envVar]: value };
    }
  }
  const service = await resolveConfigurationProperty(['service']);
  const stage = await resolveVariable('sls:stage');
  const webhookSecrets = webhookSecretsKeyId(service, stage, await param('webhookSecretsKeyId'));
  byRole.webhookConfig = { ...byRole.webhookConfig, WEBHOOK_SECRETS_KEY_ID: webhookSecrets };
  // The delivery worker opens the secrets it signs with.
  byRole.webhookDelivery = { ...byRole.webhookDelivery, WEBHOOK_SECRETS_KEY_ID: webhookSecrets };
  // Onboarding accepts processor secrets only where the functions' roles may read them (iam.cjs ProcessorSecrets).
  byRole.configWrite = { ...byRole.configWrite, PROCESSOR_SECRETS_PREFIX: processorSecretsPrefix(service, stage) };
  if (sandbox) {
    const { envVar, baseName } = table('SandboxTable');
    for (const role of Object.keys(SANDBOX_TABLE_ACCESS)) byRole[role] = { ...byRole[role], [envVar]: tableName(service, stage, baseName) };
  }
  return { all: publicBaseUrl ? { PUBLIC_BASE_URL: publicBaseUrl } : {}, byRole };
}

/** serverless.yml `functions:` — the stage's route table; the fallback knows whether /sandbox/* exists. */
async function serverlessFunctions(helpers) {
  const { sandbox } = await stageSettings(helpers);
  const entries = deployedRouteTable(loadRouteTable(), { sandbox });
  const functions = buildFunctions(entries, await optionalEnvironment(helpers, { sandbox }));
  for (const entry of entries.filter((e) => e.catchAll)) {
    const fallback = functions[entry.name];
    fallback.environment = { ...fallback.environment, SANDBOX_ROUTES: sandbox ? 'deployed' : 'absent' };
  }
  return functions;
}

// Serverless `${file(...)}` calls a function export with its resolver helpers.
module.exports = serverlessFunctions;
module.exports.buildFunctions = buildFunctions;
module.exports.ROLE_ENVIRONMENT = ROLE_ENVIRONMENT;
module.exports.NO_SOURCE_MAPS = NO_SOURCE_MAPS;
