import { isIPv4 } from 'node:net';
import { UnsupportedCredentialError } from '../adyen/to-payment-request.js';
import { eciFor } from '../eci.js';
import type { AuthorizationRequest } from '../../../core/ports/authorizer.js';
import { expiryOf } from '../transport/expiry.js';
import type { CkoPaymentRequest, CkoThreeDs } from './types.js';

const TOKEN_TYPE: Readonly<Record<string, 'vts' | 'mdes'>> = { VISA: 'vts', MASTERCARD: 'mdes' };

/**
 * Our authorization → Checkout.com POST /payments (api-schema.ts PaymentRequest):
 * - source.type network_token with the token, expiry, token_type vts (Visa Token Service) or mdes
 *   (Mastercard MDES), the token cryptogram (TAVV) and the payment's own ECI (eci.ts);
 * - reference = our paymentRef (≤ 50): what `GET /payments?reference=` finds again;
 * - capture false for AUTH, true for PURCHASE; processing_channel_id = the merchant's channel;
 * - payment_ip only when it is IPv4 (the published IPAddress is format ipv4);
 * - a stepped-up payment adds the `3ds` object for a third-party authentication
 *   (checkout.com/docs/payments/regulation-support/3d-secure-payments-with-a-third-party-provider):
 *   enabled, eci, cryptogram (the authentication value), version, and xid = the directory
 *   server's transaction id, which that page requires for 3DS2 Mastercard and Amex and allows
 *   for Visa; "for 3D Secure payments the ECI must be provided in the 3ds payment field".
 */
export function toPaymentRequest(request: AuthorizationRequest, processingChannelId: string): CkoPaymentRequest {
  const tokenType = TOKEN_TYPE[request.brand];
  if (request.credential.kind !== 'token' || !tokenType)
    throw new UnsupportedCredentialError('the Checkout.com adapter authorizes Visa and Mastercard network tokens only');
  const { month, year } = expiryOf(request.credential);
  return {
    source: {
      type: 'network_token',
      token: request.credential.number,
      expiry_month: month,
      expiry_year: year,
      token_type: tokenType,
      cryptogram: request.credential.cryptogram,
      eci: eciFor(request.brand, request.eci),
    },
    amount: request.amount.value,
    currency: request.amount.currencyCode,
    payment_type: 'Regular',
    reference: request.idempotencyKey,
    capture: request.capture,
    processing_channel_id: processingChannelId,
    ...(request.threeDs ? { '3ds': threeDs(request) } : {}),
    ...(request.payerIp && isIPv4(request.payerIp) ? { payment_ip: request.payerIp } : {}),
  };
}

function threeDs(request: AuthorizationRequest): CkoThreeDs {
  const result = request.threeDs!;
  return {
    enabled: true,
    eci: eciFor(request.brand, result.eci),
    cryptogram: result.authenticationValue,
    xid: result.dsTransactionId,
    version: result.protocolVersion,
  };
}
