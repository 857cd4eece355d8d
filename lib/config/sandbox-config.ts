import { z } from 'zod';
import { parseEnv, urlString } from './parse-env.js';

/** Empty or blank means "not set" (serverless params default to nothing, shells export ""). */
const optionalUrl = z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), urlString.optional());

/**
 * The sandbox Click to Pay network (SRC simulator, docs/sandbox-src-contract.md). Its PRIVATE
 * signing JWKS is the gate: unset → the sandbox SRC is disabled and every /sandbox/src route
 * answers 404. Only the sandbox SRC function is given this variable (infra/serverless).
 */
const schema = z.object({
  SANDBOX_NETWORK_SIGNING_JWKS_URL: optionalUrl,
});

export type SandboxConfig = z.output<typeof schema>;
export const sandboxConfig: SandboxConfig = parseEnv(schema);
