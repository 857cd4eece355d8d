import * as z from 'zod';
import { parseEnv } from './parse-env.js';

/**
 * The name prefix under which this stack's roles may read processor secrets (infra/serverless/iam.cjs
 * ProcessorSecrets: `<service>/<stage>/processors/`), given to onboarding only. Set: a processor
 * secret ARN whose name lies outside it is refused at onboarding, not at the first payment
 * (AccessDenied). Unset (tests, tools): any name.
 */
const schema = z.object({
  PROCESSOR_SECRETS_PREFIX: z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), z.string().optional()),
});

export type ProcessorSecretsConfig = z.output<typeof schema>;
export const processorSecretsConfig: ProcessorSecretsConfig = parseEnv(schema);
