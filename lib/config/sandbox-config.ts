import * as z from 'zod';
import { blankAsUnset, parseEnv, urlString } from './parse-env.js';

/**
 * The sandbox Click to Pay network (SRC simulator, docs/sandbox-src-contract.md). Its PRIVATE
 * signing JWKS is the gate: unset → the sandbox SRC is disabled and every /sandbox/src route
 * answers 404. Only the sandbox SRC function is given this variable (infra/serverless).
 */
const schema = z.object({
  SANDBOX_NETWORK_SIGNING_JWKS_URL: blankAsUnset(urlString),
});

export type SandboxConfig = z.output<typeof schema>;
export const sandboxConfig: SandboxConfig = parseEnv(schema);
