import type { PaymentFailure, ThreeDsEvidence } from '../../domain/payment.js';
import type { AuthorizationThreeDs } from '../../ports/authorizer.js';
import type { Authentication } from '../../ports/three-ds-server.js';

/**
 * What the payment keeps of an authentication (SPEC 4.17 "what it keeps"): ids, version,
 * transStatus and its reason, the ECI — never the authentication value.
 */
export function evidenceOf(fields: { [K in keyof ThreeDsEvidence]: ThreeDsEvidence[K] | undefined }): ThreeDsEvidence {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as unknown as ThreeDsEvidence;
}

export function authenticatedEvidence(authentication: Authentication): ThreeDsEvidence {
  return evidenceOf({
    transactionId: authentication.transactionId,
    dsTransactionId: authentication.dsTransactionId,
    acsTransactionId: authentication.acsTransactionId,
    protocolVersion: authentication.messageVersion,
    transStatus: authentication.transStatus,
    eci: authentication.eci,
  });
}

/** FAILED THREE_DS_FAILED, the reason naming transStatus and transStatusReason (EMV codes, no free text). */
export function challengeFailure(evidence: ThreeDsEvidence): PaymentFailure {
  const details = [
    `transStatus ${evidence.transStatus}`,
    ...(evidence.transStatusReason ? [`transStatusReason ${evidence.transStatusReason}`] : []),
    ...(evidence.challengeCancel ? [`challengeCancel ${evidence.challengeCancel}`] : []),
  ];
  return { code: 'THREE_DS_FAILED', reason: `Cardholder authentication failed (${details.join(', ')})` };
}

/**
 * The authorization's external-3DS data (AuthorizationRequest.threeDs, SPEC 4.16): in memory only.
 * `challenged`: the authentication is a challenge's RReq (the ARes said C), which processors
 * that take both statuses are told apart (Adyen's directoryResponse C + authenticationResponse).
 */
export function authorizationThreeDs(authentication: Authentication, challenged: boolean): AuthorizationThreeDs {
  return {
    authenticationValue: authentication.authenticationValue,
    eci: authentication.eci,
    dsTransactionId: authentication.dsTransactionId,
    protocolVersion: authentication.messageVersion,
    transStatus: authentication.transStatus,
    ...(challenged ? { challenged: true as const } : {}),
  };
}
