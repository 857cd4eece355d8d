import * as z from 'zod';
import { SECRETS_MANAGER_ARN, SSM_PARAMETER_ARN } from '../../adapters/aws/secret-string.js';
import { blankAsUnset, parseEnv, positiveInt, webUrl } from './parse-env.js';

/**
 * The production 3DS Server (SPEC 4.17; docs/integrating/three-ds.md), read by the payment
 * functions only (4.3, 4.4, 4.10):
 * - THREE_DS_SERVER_URL: its API (3dsecure.io: https://service.3dsecure.io, or the sandbox
 *   https://service.sandbox.3dsecure.io); http only on a loopback host (the fake of a local demo).
 * - THREE_DS_SERVER_API_KEY_ARN: the ARN of the secret holding its API key — a Secrets Manager
 *   secret or an SSM SecureString parameter, the key itself or JSON `{"apiKey":"…"}`. Never the
 *   key: it is read at the first step-up (lib/composition/secrets.ts: SECRETS_MANAGER_ENDPOINT and
 *   SSM_ENDPOINT locally), cached five minutes in the warm function, never logged or stored.
 * Both or neither. Neither: production step-ups answer 502 (retryable), never unauthenticated.
 * - THREE_DS_PREPARE_TIMEOUT_MS (3000), THREE_DS_AUTH_TIMEOUT_MS (11000), THREE_DS_RESULT_TIMEOUT_MS
 *   (3000): the deadlines of /preauth, /auth and /postauth (docs/design/three-ds-server.md §2).
 */
const secretArn = z
  .string()
  .trim()
  .refine((value) => SECRETS_MANAGER_ARN.test(value) || SSM_PARAMETER_ARN.test(value), 'a Secrets Manager secret ARN or an SSM parameter ARN');

const schema = z
  .object({
    THREE_DS_SERVER_URL: blankAsUnset(webUrl),
    THREE_DS_SERVER_API_KEY_ARN: blankAsUnset(secretArn),
    THREE_DS_PREPARE_TIMEOUT_MS: positiveInt(3_000),
    THREE_DS_AUTH_TIMEOUT_MS: positiveInt(11_000),
    THREE_DS_RESULT_TIMEOUT_MS: positiveInt(3_000),
  })
  .refine((env) => Boolean(env.THREE_DS_SERVER_URL) === Boolean(env.THREE_DS_SERVER_API_KEY_ARN), {
    message: 'set both or neither',
    path: ['THREE_DS_SERVER_API_KEY_ARN'],
  });

export type ThreeDsServerConfig = z.output<typeof schema>;
export const parseThreeDsServerConfig = (env: NodeJS.ProcessEnv) => parseEnv(schema, env);
export const threeDsServerConfig: ThreeDsServerConfig = parseThreeDsServerConfig(process.env);
