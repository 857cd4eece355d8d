import * as z from 'zod';
import { parseEnv } from './parse-env.js';

/**
 * Which acquirer authorizes PRODUCTION merchants (SPEC §3: sandbox merchants always reach the
 * sandbox acquirer). `none`, the default: no acquirer is plugged in yet, every production
 * authorization is 502 and retryable. `sandbox`: the sandbox acquirer answers for them too — for
 * a non-production stage that runs production-configured merchants against fake networks (the
 * browser suite's Visa and Mastercard fakes); infra/serverless/stage.cjs refuses it on a
 * production stage. Blank reads as unset (serverless params default to nothing).
 */
const schema = z.object({
  PRODUCTION_ACQUIRER: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.enum(['none', 'sandbox']).default('none'),
  ),
});

export type AcquirerConfig = z.output<typeof schema>;
export const acquirerConfig: AcquirerConfig = parseEnv(schema);
