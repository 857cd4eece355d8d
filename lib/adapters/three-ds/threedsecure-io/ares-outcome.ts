import type { AuthenticationOutcome, AuthenticationRequest } from '../../../core/ports/three-ds-server.js';
import { ThreeDsServerCallError } from '../../../core/ports/three-ds-server-error.js';
import type { Ares } from './client.js';
import { buildCreq } from './creq.js';
import { eciFor } from './eci.js';

/**
 * What an ARes means for the payment (ares_220 / ares_231 transStatus; auth.rst):
 * - Y, A: frictionless — the authentication value, ECI, DS transaction id and version go to the
 *   authorization;
 * - C: challenge — the page form-POSTs the CReq to acsURL; the verdict comes later from /postauth;
 * - N, R, U, I: not authenticated (I, "informational only", answers a data-only request this
 *   service never makes, so it proves nothing either); transStatusReason is kept;
 * - D (decoupled) and S (2.3.1 SPC): not supported — refused, never authorized on.
 * An ARes that says Y/A without an authentication value, or C without an acsURL, is unusable:
 * it was processed, so it is `maybe-sent` and the attempt goes to recovery, never re-sent.
 */
export function aresOutcome(ares: Ares, request: Pick<AuthenticationRequest, 'brand' | 'browser' | 'challengeWindowSize'>): AuthenticationOutcome {
  const ids = { transactionId: ares.threeDSServerTransID, dsTransactionId: ares.dsTransID };
  const status = ares.transStatus;
  if (status === 'Y' || status === 'A') {
    if (!ares.authenticationValue) throw unusable(`transStatus ${status} without an authenticationValue`);
    return {
      kind: 'frictionless',
      authentication: {
        transStatus: status,
        authenticationValue: ares.authenticationValue,
        eci: eciFor(request.brand, status, ares.eci),
        ...ids,
        acsTransactionId: ares.acsTransID,
        messageVersion: ares.messageVersion,
      },
    };
  }
  if (status === 'C') {
    if (!ares.acsURL) throw unusable('transStatus C without an acsURL');
    return {
      kind: 'challenge',
      challenge: {
        transactionId: ares.threeDSServerTransID,
        acsTransactionId: ares.acsTransID,
        dsTransactionId: ares.dsTransID,
        messageVersion: ares.messageVersion,
        brand: request.brand,
      },
      acsUrl: ares.acsURL,
      creq: buildCreq(
        { threeDSServerTransID: ares.threeDSServerTransID, acsTransID: ares.acsTransID },
        ares.messageVersion,
        request.browser?.challengeWindowSize ?? request.challengeWindowSize ?? '05',
      ),
    };
  }
  if (status === 'N' || status === 'R' || status === 'U' || status === 'I') {
    return { kind: 'failed', transStatus: status, ...(ares.transStatusReason ? { transStatusReason: ares.transStatusReason } : {}), ...ids };
  }
  if (status === 'D' || status === 'S') return { kind: 'unsupported', transStatus: status, transactionId: ares.threeDSServerTransID };
  throw unusable(`unknown transStatus`);
}

const unusable = (reason: string) => new ThreeDsServerCallError('maybe-sent', '/auth', { status: 200, reason: `unusable ARes: ${reason}` });
