import { OperationNotPerformedError } from '../../../core/ports/authorizer.js';
import { eciFor } from '../eci.js';
import type { AuthorizationRequest } from '../../../core/ports/authorizer.js';
import { expiryOf } from '../transport/expiry.js';
import type { AdyenMpiData, AdyenPaymentRequest } from './types.js';

/**
 * Our authorization → Checkout API v71 POST /payments (api-schema.ts PaymentRequest):
 * - paymentMethod.type networkToken with the token number and expiry;
 * - mpiData.tokenAuthenticationVerificationValue = the token cryptogram (TAVV), mpiData.eci =
 *   the payment's own ECI (eci.ts), never a constant;
 * - a stepped-up payment adds Adyen's third-party 3DS fields (docs.adyen.com/online-payments/
 *   3d-secure/other-3ds-flows/authorize-mpidata; v71 ThreeDSecureData): cavv (authentication
 *   value), eci (the 3DS one), dsTransID, threeDSVersion and directoryResponse = the
 *   authentication's transStatus (Y or A). The port carries the final transStatus only
 *   (lib/core/ports/authorizer.ts ThreeDsAuthentication), so authenticationResponse — which
 *   v71 wants only after a challenge, with directoryResponse then `C` — is not sent: a
 *   challenged authentication goes as its final status (docs/design/processors.md §3);
 * - shopperInteraction Ecommerce; no recurringProcessingModel (a one-off shopper-present
 *   payment: v71's enum has no "none", the member is simply absent);
 * - AUTH: additionalData.manualCapture "true" (this payment waits for our capture whatever the
 *   account's default); PURCHASE: captureDelayHours 0 (captured at once);
 * - reference = our paymentRef, the same string the idempotency key is derived from.
 */
export function toPaymentRequest(request: AuthorizationRequest, account: { merchantAccount: string; returnUrl: string }): AdyenPaymentRequest {
  if (request.credential.kind !== 'token') throw new UnsupportedCredentialError('the Adyen adapter authorizes network tokens only');
  const { month, year } = expiryOf(request.credential);
  return {
    merchantAccount: account.merchantAccount,
    reference: request.idempotencyKey,
    amount: { currency: request.amount.currencyCode, value: request.amount.value },
    returnUrl: account.returnUrl,
    paymentMethod: { type: 'networkToken', number: request.credential.number, expiryMonth: String(month).padStart(2, '0'), expiryYear: String(year) },
    mpiData: mpiData(request),
    shopperInteraction: 'Ecommerce',
    ...(request.capture ? { captureDelayHours: 0 } : { additionalData: { manualCapture: 'true' } }),
    ...(request.payerIp ? { shopperIP: request.payerIp } : {}),
  };
}

function mpiData(request: AuthorizationRequest): AdyenMpiData {
  const tavv = { tokenAuthenticationVerificationValue: request.credential.cryptogram };
  const threeDs = request.threeDs;
  if (!threeDs) return { ...tavv, eci: eciFor(request.brand, request.eci) };
  return {
    ...tavv,
    eci: eciFor(request.brand, threeDs.eci),
    cavv: threeDs.authenticationValue,
    dsTransID: threeDs.dsTransactionId,
    threeDSVersion: threeDs.protocolVersion,
    // v71 ThreeDSecureData: directoryResponse is the ARes's transStatus (C when a challenge
    // followed), authenticationResponse the challenge's (RReq) — docs.adyen.com authorize-mpidata.
    ...(threeDs.challenged ? { directoryResponse: 'C', authenticationResponse: threeDs.transStatus } : { directoryResponse: threeDs.transStatus }),
  };
}

/** A credential this processor's adapter cannot authorize: refused before anything is sent. */
export class UnsupportedCredentialError extends OperationNotPerformedError {
  override readonly name: string = 'UnsupportedCredentialError';
}
