import * as z from 'zod';
import { blankAsUnset, parseEnv, urlString } from './parse-env.js';

/**
 * Where network confirmations go (SPEC 4.3's confirmation paragraph;
 * docs/integrating/network-confirmations.md). Read by the delivery worker only.
 * - MASTERCARD_CONFIRMATIONS_URL, MASTERCARD_SRC_CLIENT_ID, MASTERCARD_API_CREDENTIALS_PARAMETER_ARN:
 *   Mastercard's confirmations endpoint (https), our SRC Initiator client id, and the ARN of the
 *   SSM SecureString holding the OAuth consumer key and signing key — all three or none.
 *   None: Mastercard checkouts' confirmations fail each attempt (`no-network-client`) and end
 *   FAILED, counted by NetworkConfirmations{outcome=failed}: a deployment taking Mastercard
 *   traffic must set them.
 * - SANDBOX_CONFIRMATIONS_URL: the sandbox SRC's confirmations endpoint; defaults to
 *   PUBLIC_BASE_URL + /sandbox/src/confirmations when PUBLIC_BASE_URL is set.
 */
const SSM_PARAMETER_ARN = /^arn:aws[a-z-]*:ssm:[a-z0-9-]+:\d{12}:parameter\/[\w./-]+$/;

const schema = z
  .object({
    MASTERCARD_CONFIRMATIONS_URL: blankAsUnset(z.url({ protocol: /^https$/ })),
    MASTERCARD_SRC_CLIENT_ID: blankAsUnset(z.string().trim().min(1).max(128)),
    MASTERCARD_API_CREDENTIALS_PARAMETER_ARN: blankAsUnset(z.string().trim().regex(SSM_PARAMETER_ARN)),
    SANDBOX_CONFIRMATIONS_URL: blankAsUnset(urlString),
    PUBLIC_BASE_URL: blankAsUnset(urlString),
  })
  .refine(
    (env) => [env.MASTERCARD_CONFIRMATIONS_URL, env.MASTERCARD_SRC_CLIENT_ID, env.MASTERCARD_API_CREDENTIALS_PARAMETER_ARN].filter(Boolean).length % 3 === 0,
    { message: 'set all three or none', path: ['MASTERCARD_CONFIRMATIONS_URL'] },
  )
  .transform(({ PUBLIC_BASE_URL, SANDBOX_CONFIRMATIONS_URL, ...rest }) => ({
    ...rest,
    SANDBOX_CONFIRMATIONS_URL: SANDBOX_CONFIRMATIONS_URL ?? (PUBLIC_BASE_URL ? `${PUBLIC_BASE_URL.replace(/\/+$/, '')}/sandbox/src/confirmations` : undefined),
  }));

export type NetworkConfirmationsConfig = z.output<typeof schema>;
export const parseNetworkConfirmationsConfig = (env: NodeJS.ProcessEnv) => parseEnv(schema, env);
export const networkConfirmationsConfig: NetworkConfirmationsConfig = parseNetworkConfirmationsConfig(process.env);
