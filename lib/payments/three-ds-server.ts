import type { ThreeDsChallenge } from '../domain/payment.js';
import { AuthorizationUnavailableError } from '../errors.js';
import { startSandboxChallenge } from '../sandbox/sandbox-three-ds.js';

/** The port to a 3DS server: where to send the cardholder for a challenge. */
export interface ThreeDsServer {
  startChallenge(baseUrl: string, orderRef: string, paymentRef: string): Promise<ThreeDsChallenge>;
}

/** The service's own sandbox ACS (SPEC §5). */
export const sandboxThreeDsServer: ThreeDsServer = {
  startChallenge: async (baseUrl, orderRef, paymentRef) => startSandboxChallenge(baseUrl, orderRef, paymentRef),
};

/**
 * The production slot until a gateway integrates its 3DS server: a step-up cannot be done,
 * so the attempt fails as 502 and the payment stays retryable — never parked in AWAIT_3DS
 * behind an ACS that will not answer, and never authorized without the authentication.
 */
export const unconfiguredThreeDsServer: ThreeDsServer = {
  startChallenge: async () => {
    throw new AuthorizationUnavailableError('Cardholder authentication is unavailable; the payment can be retried.', {
      cause: new Error('no production 3DS server is configured for this deployment'),
    });
  },
};
