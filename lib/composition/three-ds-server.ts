import { secretField } from '../adapters/aws/secret-string.js';
import { threeDSecureIoServerOnFirstUse } from '../adapters/three-ds/threedsecure-io/on-first-use.js';
import type { ThreeDsSettings } from '../core/payments/deps.js';
import { unconfiguredThreeDsServer, type ThreeDsServer } from '../core/ports/three-ds-server.js';
import { threeDsServerConfig as config, type ThreeDsServerConfig } from './config/three-ds-server-config.js';

/**
 * The production 3DS Server of the payment functions (SPEC 4.17), held once per cold start
 * and only by them (lib/composition/payments.ts), its adapter imported at the first step-up
 * (threedsecure-io/on-first-use.ts: not read at the cold start; with the processors' adapters,
 * ./payment-adapters.ts): 3dsecure.io's API at THREE_DS_SERVER_URL,
 * its API key read from THREE_DS_SERVER_API_KEY_ARN at the first step-up by the service's secret
 * source (lib/composition/secrets.ts, imported then: the SDK clients are no part of the cold
 * start; cached five minutes, so a rotation is picked up; a failed read is retried by the next
 * step-up, and answers 502 meanwhile). Unset: the
 * unconfigured slot (every production step-up 502, retryable). Another 3DS Server: another
 * adapter of the ThreeDsServer port, chosen here (docs/integrating/three-ds.md).
 */
export function threeDsServerFrom(settings: ThreeDsServerConfig): ThreeDsServer {
  if (!settings.THREE_DS_SERVER_URL || !settings.THREE_DS_SERVER_API_KEY_ARN) {
    return unconfiguredThreeDsServer('no production 3DS Server is configured for this deployment (THREE_DS_SERVER_URL)');
  }
  const arn = settings.THREE_DS_SERVER_API_KEY_ARN;
  const apiKey = async () => secretField(await (await paymentAdapters()).secretSource.read(arn), 'apiKey');
  return threeDSecureIoServerOnFirstUse(
    {
      baseUrl: settings.THREE_DS_SERVER_URL,
      apiKey,
      // A 3DS Server on a loopback address is a local demo's fake: its AReqs may name the local
      // service's http notification URLs, which 2.3.1 otherwise wants https.
      loopbackHttpAllowed: isLoopback(settings.THREE_DS_SERVER_URL),
    },
    async () => (await paymentAdapters()).ThreeDSecureIoServer,
  );
}

/** The adapter and the secret source come with the processors' adapters: one chunk (./payment-adapters.ts). */
const paymentAdapters = () => import('./payment-adapters.js');

const isLoopback = (url: string) => ['localhost', '127.0.0.1', '[::1]'].includes(new URL(url).hostname);

export const productionThreeDsServer: ThreeDsServer = threeDsServerFrom(config);

export const threeDsSettings: ThreeDsSettings = {
  prepareTimeoutMs: config.THREE_DS_PREPARE_TIMEOUT_MS,
  authenticateTimeoutMs: config.THREE_DS_AUTH_TIMEOUT_MS,
  resultTimeoutMs: config.THREE_DS_RESULT_TIMEOUT_MS,
  maxAttempts: 3,
};
