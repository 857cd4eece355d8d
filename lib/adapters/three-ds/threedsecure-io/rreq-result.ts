import type { CardBrand, ChallengeResult } from '../../../core/ports/three-ds-server.js';
import { ThreeDsServerCallError } from '../../../core/ports/three-ds-server-error.js';
import type { Rreq } from './client.js';
import { eciFor } from './eci.js';

/**
 * The verdict of a challenge: the RReq the ACS sent the 3DS Server through the directory server
 * (rreq_220 / rreq_231; postauth.rst). Y/A with the authentication value, or N/R/U with
 * transStatusReason and challengeCancel kept (challengeCancel 01: the shopper cancelled; 05: the
 * ACS never received the first CReq). This, never the browser's CRes, decides the payment.
 */
export function rreqResult(rreq: Rreq, brand: CardBrand): Exclude<ChallengeResult, { kind: 'pending' } | { kind: 'expired' }> {
  const status = rreq.transStatus;
  if (status === 'Y' || status === 'A') {
    if (!rreq.authenticationValue)
      throw new ThreeDsServerCallError('maybe-sent', '/postauth', {
        status: 200,
        reason: `unusable RReq: transStatus ${status} without an authenticationValue`,
      });
    return {
      kind: 'authenticated',
      authentication: {
        transStatus: status,
        authenticationValue: rreq.authenticationValue,
        eci: eciFor(brand, status, rreq.eci),
        transactionId: rreq.threeDSServerTransID,
        dsTransactionId: rreq.dsTransID,
        acsTransactionId: rreq.acsTransID,
        messageVersion: rreq.messageVersion,
      },
    };
  }
  if (status === 'N' || status === 'R' || status === 'U') {
    return {
      kind: 'failed',
      transStatus: status,
      ...(rreq.transStatusReason ? { transStatusReason: rreq.transStatusReason } : {}),
      ...(rreq.challengeCancel ? { challengeCancel: rreq.challengeCancel } : {}),
    };
  }
  throw new ThreeDsServerCallError('maybe-sent', '/postauth', { status: 200, reason: 'unusable RReq: unknown transStatus' });
}
