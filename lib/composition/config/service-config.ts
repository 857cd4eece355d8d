import * as z from 'zod';
import { parseEnv, positiveInt, urlString } from './parse-env.js';

/** Settings every function needs: storage and logging. Validated once per cold start. */
const schema = z.object({
  CONFIG_TABLE: z.string().min(3).default('clicktopay-config'),
  ORDERS_TABLE: z.string().min(3).default('clicktopay-orders'),
  SESSIONS_TABLE: z.string().min(3).default('clicktopay-sessions'),
  REPLAY_TABLE: z.string().min(3).default('clicktopay-replay'),
  IDEMPOTENCY_TABLE: z.string().min(3).default('clicktopay-idempotency'),
  DYNAMODB_ENDPOINT: urlString.optional(),
  KMS_ENDPOINT: urlString.optional(),
  /** Set only locally: where Secrets Manager and SSM are answered (the local KMS server answers both). */
  SECRETS_MANAGER_ENDPOINT: urlString.optional(),
  SSM_ENDPOINT: urlString.optional(),
  AWS_REGION: z.string().min(1).default('us-east-1'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /** Public origin of the API and the hosted page; when unset it is derived from the request. */
  PUBLIC_BASE_URL: urlString.optional(),
  SESSION_TTL_SECONDS: positiveInt(1800),
});

export type ServiceConfig = z.output<typeof schema>;
export const serviceConfig: ServiceConfig = parseEnv(schema);
