'use strict';

const { refuse } = require('./refusal.cjs');

/**
 * What a stage is, decided once for serverless.yml and infra/serverless/*.cjs.
 *
 * Production rule: every stage is a production stage EXCEPT `local`, `dev`, `test` and the
 * stages named `sandbox` or `sandbox-…`. An unknown name is production (fail safe: a typo or a
 * new `prod-eu` never slips through as "dev"). A production stage refuses to package while a
 * URL param still holds one of serverless.yml's `*.invalid` placeholders (RFC 2606: they can
 * never resolve), so a stack that would reject every token can never be deployed by mistake.
 *
 * Sandbox: the `/sandbox/*` routes, their functions (sandboxAcs = the sandbox 3DS ACS,
 * sandboxSrc = the sandbox Click to Pay network), roles, route throttling and the sandbox's own
 * table (infra/tables.cjs; the payment roles reach it only there) exist only where
 * the `sandbox` param is `true` — and always on `local` (`npm start` runs
 * `osls offline start --stage local` and needs them). Without them, sandbox merchants are
 * not served on that stage: no sandbox acquirer (their authorizations, captures and refunds
 * answer 502, retryable) and no sandbox ACS (lib/composition/acquirers.ts, payments.ts).
 */

const NON_PRODUCTION_STAGES = Object.freeze(['local', 'dev', 'test']);
const LOCAL_STAGE = 'local';
/** The params whose values are URLs (or lists of them): where a placeholder can hide. */
const URL_PARAMS = Object.freeze([
  'authIssuer',
  'authJwksUrl',
  'networkJwksUrls',
  'publicBaseUrl',
  'sandboxNetworkSigningJwksUrl',
  'clickToPaySdkUrls',
  'sandboxAcsBaseUrl',
  'threeDsAcsOrigins',
  'threeDsServerUrl',
  'corsAllowedOrigins',
]);
/** A host in the reserved `.invalid` TLD, e.g. https://auth.example.invalid/… (a trailing root dot too). */
const PLACEHOLDER_HOST = /\.invalid\.?(?![a-z0-9.-])/i;

function isProductionStage(stage) {
  return !NON_PRODUCTION_STAGES.includes(stage) && !/^sandbox(-|$)/.test(stage);
}

/** `sandbox` param → boolean; `local` always true. Anything but true/false fails the packaging. */
function sandboxEnabled(stage, value) {
  if (stage === LOCAL_STAGE) return true;
  if (value === undefined || value === null || value === '' || value === false || value === 'false') return false;
  if (value === true || value === 'true') return true;
  refuse(`The sandbox param must be true or false, not "${value}"`);
}

/** Names of the params (of `values`: name → resolved value) that hold a `*.invalid` placeholder. */
function placeholderParams(values) {
  return URL_PARAMS.filter((name) => typeof values[name] === 'string' && PLACEHOLDER_HOST.test(values[name]));
}

/** Throws, naming the params, when a production stage still has placeholders. */
function assertDeployable(stage, values) {
  if (!isProductionStage(stage)) return;
  const names = placeholderParams(values);
  if (names.length === 0) return;
  refuse(
    `Stage "${stage}" is a production stage and these params still hold the *.invalid placeholders of serverless.yml: ` +
      `${names.join(', ')}. Pass real values with --param "name=value", or use a non-production stage ` +
      `(${NON_PRODUCTION_STAGES.join(', ')}, sandbox, sandbox-…).`,
  );
}

/** `{ stage, production, sandbox }` of the stage being packaged; checks the `sandbox` param. */
async function stageSettings({ resolveVariable }) {
  const stage = await resolveVariable('sls:stage');
  const sandbox = sandboxEnabled(stage, await resolveVariable('param:sandbox, null'));
  return { stage, production: isProductionStage(stage), sandbox };
}

/**
 * serverless.yml: `custom.stageGuardRails: ${file(./infra/serverless/stage.cjs):serverlessStageGuardRails}`
 * — resolved on every command, so `package` and `deploy` of a production stage with placeholders fail here.
 */
async function serverlessStageGuardRails(helpers) {
  const settings = await stageSettings(helpers);
  const values = {};
  for (const name of URL_PARAMS) values[name] = await helpers.resolveVariable(`param:${name}, null`);
  assertDeployable(settings.stage, values);
  // Production merchants approved by sandbox rules: never on a production stage.
  const productionAcquirer = await helpers.resolveVariable('param:productionAcquirer, null');
  if (settings.production && productionAcquirer === 'sandbox') {
    refuse(`Stage "${settings.stage}" is a production stage: productionAcquirer=sandbox would approve production merchants by sandbox rules`);
  }
  if (productionAcquirer !== null && productionAcquirer !== undefined && !['none', 'sandbox', ''].includes(productionAcquirer)) {
    refuse(`The productionAcquirer param must be none or sandbox, not "${productionAcquirer}"`);
  }
  // The sandbox acquirer keeps its operations in the sandbox table, which only a stage with the sandbox has.
  if (!settings.sandbox && productionAcquirer === 'sandbox') {
    refuse(
      `Stage "${settings.stage}": productionAcquirer=sandbox needs the sandbox acquirer, which only a stage with the sandbox has; add --param "sandbox=true"`,
    );
  }
  // The sandbox network's signing key only means something where the sandbox is deployed.
  if (!settings.sandbox && values.sandboxNetworkSigningJwksUrl) {
    refuse(`Stage "${settings.stage}": sandboxNetworkSigningJwksUrl is set but the sandbox is not deployed; add --param "sandbox=true" or drop it`);
  }
  if (!settings.sandbox && values.sandboxAcsBaseUrl) {
    refuse(`Stage "${settings.stage}": sandboxAcsBaseUrl is set but the sandbox is not deployed; add --param "sandbox=true" or drop it`);
  }
  return settings;
}

module.exports = {
  NON_PRODUCTION_STAGES,
  URL_PARAMS,
  isProductionStage,
  sandboxEnabled,
  placeholderParams,
  assertDeployable,
  stageSettings,
  serverlessStageGuardRails,
};
