import * as z from 'zod';
import { parseEnv } from './parse-env.js';

/**
 * The fallback ($default route). SANDBOX_ROUTES: whether this stage deploys the /sandbox/*
 * routes (infra/serverless/functions.cjs sets it from the `sandbox` param); `absent` makes
 * /sandbox/* unknown paths (404), like any path API Gateway has no route for. Unset (tests
 * invoking the handler in-process) = deployed, as on the local stage.
 */
const schema = z.object({
  SANDBOX_ROUTES: z.enum(['deployed', 'absent']).default('deployed'),
});

export type FallbackConfig = z.output<typeof schema>;
export const parseFallbackConfig = (env: NodeJS.ProcessEnv): FallbackConfig => parseEnv(schema, env);
export const fallbackConfig: FallbackConfig = parseFallbackConfig(process.env);
