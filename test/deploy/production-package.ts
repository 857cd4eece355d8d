/**
 * One `osls package --stage prod` with real values and every optional param of a production
 * deployment (alarm topic, CORS origins), shared by the test files that read a production
 * template (guard-rails, alarms, CORS): packaging is the costliest thing `npm test` does (every
 * function bundled and zipped), and each of those files only reads what its params produced.
 *
 * Files run in parallel workers, so the package is shared through the run's data directory
 * (TEST_DATA_DIR, removed by the global teardown): the first file to ask takes a lock
 * (an atomic mkdir) and packages; the others wait for its result file. A failure is shared too,
 * as the error text, so every file reports it.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageTemplate, type PackagedTemplate } from './package-template.js';

/** A Visa-style kid (commas, spaces, `|`, `=`) must reach the functions byte for byte. */
export const NETWORK_KIDS = JSON.stringify({
  'alias/click-to-pay-prod-payload-current': ['4F2A9C0D|CN=payload.pay.example.com, O=Example, C=GB', '3c9f2b7e41d0'],
});
export const PRODUCTION_STAGE = 'prod';
export const ALARM_TOPIC_ARN = 'arn:aws:sns:eu-west-1:123456789012:click-to-pay-ops';
/** Duplicates and spaces on purpose: the template must list each origin once. */
export const CORS_ORIGINS_PARAM = 'https://shop.example.com, https://admin.example.com:8443,https://shop.example.com';

/** Real values for every param a production stage refuses as a placeholder, and the optional ones. */
export const PRODUCTION_PARAMS = [
  '--param',
  'authIssuer=https://idp.example.com/',
  '--param',
  'authJwksUrl=https://idp.example.com/.well-known/jwks.json',
  '--param',
  'networkJwksUrls=visa=https://jwks.example.com/visa,mastercard=https://jwks.example.com/mastercard',
  '--param',
  'throttlingRateLimit=50',
  '--param',
  'throttlingBurstLimit=100',
  '--param',
  `payloadKeyNetworkKids=${NETWORK_KIDS}`,
  '--param',
  `alarmTopicArn=${ALARM_TOPIC_ARN}`,
  '--param',
  `corsAllowedOrigins=${CORS_ORIGINS_PARAM}`,
];

export type SharedPackage = Pick<PackagedTemplate, 'template' | 'packageDir' | 'tmpLeftovers'>;

const WAIT_MS = 400_000;

/** The shared production package: packaged by the first caller of the run, read by the rest. */
export async function productionPackage(): Promise<SharedPackage> {
  const runDir = process.env.TEST_DATA_DIR;
  if (!runDir) throw new Error('TEST_DATA_DIR unset: run the deploy tests with `npm test`');
  const dir = join(runDir, 'production-package');
  const result = join(dir, 'result.json');
  try {
    mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return waitFor(result);
  }
  let outcome: { ok: true; value: SharedPackage } | { ok: false; error: string };
  try {
    // Packaged inside the run's data directory and not cleaned up here: the other files read its
    // zips, and the global teardown removes the run's data.
    const { template, packageDir, tmpLeftovers } = await packageTemplate(PRODUCTION_PARAMS, PRODUCTION_STAGE, undefined, dir);
    outcome = { ok: true, value: { template, packageDir, tmpLeftovers } };
  } catch (error) {
    outcome = { ok: false, error: (error as Error).message };
  }
  writeFileSync(`${result}.tmp`, JSON.stringify(outcome));
  // A rename is atomic: a waiting file never reads half a result.
  renameSync(`${result}.tmp`, result);
  return unwrap(outcome);
}

async function waitFor(result: string): Promise<SharedPackage> {
  const until = Date.now() + WAIT_MS;
  while (!existsSync(result)) {
    if (Date.now() > until) throw new Error(`the shared production package did not appear within ${WAIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return unwrap(JSON.parse(readFileSync(result, 'utf8')));
}

function unwrap(outcome: { ok: true; value: SharedPackage } | { ok: false; error: string }): SharedPackage {
  if (!outcome.ok) throw new Error(`the shared production package failed:\n${outcome.error}`);
  return outcome.value;
}
