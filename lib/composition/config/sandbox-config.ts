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
 */
const schema = z.object({
  SANDBOX_NETWORK_SIGNING_JWKS_URL: blankAsUnset(urlString),
  SANDBOX_ACS_BASE_URL: blankAsUnset(webUrl),
});

export type SandboxConfig = z.output<typeof schema>;
export const sandboxConfig: SandboxConfig = parseEnv(schema);
