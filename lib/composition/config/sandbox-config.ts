import * as z from 'zod';
import { blankAsUnset, parseEnv, urlString, webUrl } from './parse-env.js';

/**
 * The sandbox Click to Pay network (SRC simulator, docs/sandbox-src-contract.md). Its PRIVATE
 * signing JWKS is the gate: unset → the sandbox SRC is disabled and every /sandbox/src route
 * answers 404. Only the sandbox SRC function is given this variable (infra/serverless).
 *
 * SANDBOX_ACS_BASE_URL: the origin (and path prefix) the sandbox ACS is served from, like an
 * issuer's ACS on its own domain (docs/integrating/three-ds.md); unset → the service's own base URL.
 * Given to the functions that start challenges and to the hosted page (its CSP admits it).
 *
 * SANDBOX_TABLE: the sandbox's own DynamoDB table (infra/tables.cjs: the sandbox acquirer's
 * operations, the sandbox ACS's transactions, the sandbox network's sessions, limits and
 * confirmation ledger). Set only on stages that serve the sandbox, and only for the functions
 * whose roles reach it (infra/serverless/functions.cjs). Unset = this stage serves no sandbox:
 * the payment functions have no sandbox acquirer and no sandbox ACS (lib/composition/sandbox.ts).
 * The sandbox's own functions exist only where it is served: they require it (requireSandboxTable).
 */
const schema = z.object({
  SANDBOX_NETWORK_SIGNING_JWKS_URL: blankAsUnset(urlString),
  SANDBOX_ACS_BASE_URL: blankAsUnset(webUrl),
  SANDBOX_TABLE: blankAsUnset(
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_.-]{3,255}$/, 'a DynamoDB table name'),
  ),
});

export type SandboxConfig = z.output<typeof schema>;
export const parseSandboxConfig = (env: NodeJS.ProcessEnv): SandboxConfig => parseEnv(schema, env);
export const sandboxConfig: SandboxConfig = parseSandboxConfig(process.env);

/** The sandbox table, for the functions that are the sandbox (its ACS, its network): a cold start without it fails, naming it. */
export function requireSandboxTable(config: SandboxConfig = sandboxConfig): string {
  if (!config.SANDBOX_TABLE) throw new Error('Invalid configuration: check SANDBOX_TABLE (the sandbox functions keep their state in the sandbox table)');
  return config.SANDBOX_TABLE;
}
