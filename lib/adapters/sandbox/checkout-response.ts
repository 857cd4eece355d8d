import { randomBytes, randomUUID } from 'node:crypto';
import { CompactEncrypt, CompactSign, importJWK, type JWK } from 'jose';
import { withLowS } from '../../core/checkout/ecdsa-low-s.js';
import type { SandboxCard } from './sandbox-cards.js';

export interface SandboxCheckoutInput {
  card: SandboxCard;
  /** Private signing JWK of the sandbox network (kid, alg RS256|ES256|PS256). */
  signingKey: JWK;
  /** The service's current payload key as served by 4.2 (public JWK with kid). */
  recipientKey: JWK;
  scheme: 'visa' | 'mastercard';
  eci?: string;
  consumerEmail?: string;
  iat?: number;
  jti?: string;
  /** The SRC's id of the card (the sandbox SRC passes the consumer's card id); random if absent. */
  srcDigitalCardId?: string;
  /**
   * The JWE `kid`; default the recipient key's thumbprint. A real network puts the id it
   * assigned to the key (Visa `<serial>|<subject DN>`, Mastercard a fingerprint): tests set it.
   */
  recipientKid?: string;
}

/**
 * What a network's SRC system hands the SDK at the end of checkout (SPEC 4.3): a JWS signed
 * by the network whose `encryptedPayload` is a JWE to the merchant's (our) key, wrapped in
 * the SDK result shape of the scheme. Same format the real networks send.
 */
export async function buildSandboxCheckoutResponse(input: SandboxCheckoutInput): Promise<Record<string, unknown>> {
  const { card } = input;
  const eci = input.eci ?? card.eci;
  const mastercard = card.brand === 'MASTERCARD';
  const decrypted = {
    token: { paymentToken: card.token, tokenExpirationMonth: card.expiryMonth, tokenExpirationYear: card.expiryYear },
    dynamicData: [cryptogramEntry(mastercard, eci)],
    // Visa may omit the PAR from the payload (SPEC §4.3 step 6); its masked card still has it.
    ...(mastercard ? { paymentAccountReference: card.paymentAccountReference } : {}),
    ...(input.consumerEmail ? { consumerEmailAddress: input.consumerEmail } : {}),
  };
  const recipient = await importJWK(input.recipientKey, 'RSA-OAEP-256');
  const encryptedPayload = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(decrypted)))
    .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: input.recipientKid ?? String(input.recipientKey.kid), typ: 'JOSE' })
    .encrypt(recipient);

  const iat = input.iat ?? Math.floor(Date.now() / 1000);
  const srcCorrelationId = randomUUID();
  const payload = {
    srcCorrelationId,
    srciTransactionId: randomUUID(),
    maskedCard: {
      srcDigitalCardId: input.srcDigitalCardId ?? randomUUID(),
      panBin: card.panBin,
      panLastFour: card.panLastFour,
      tokenLastFour: card.token.slice(-4),
      panExpirationMonth: card.expiryMonth,
      panExpirationYear: card.expiryYear,
      paymentAccountReference: card.paymentAccountReference,
      digitalCardData: { status: 'ACTIVE', descriptorName: card.descriptorName },
    },
    ...(input.consumerEmail ? { maskedConsumer: { emailAddress: maskEmail(input.consumerEmail) } } : {}),
    assuranceData: assuranceData(mastercard, eci),
    encryptedPayload,
    iat,
  };
  const alg = String(input.signingKey.alg ?? 'RS256');
  const signing = await importJWK(input.signingKey, alg);
  const signed = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    // Mastercard's SRC names itself in `iss` (the service accepts and ignores it).
    .setProtectedHeader({
      alg,
      kid: String(input.signingKey.kid),
      jti: input.jti ?? srcCorrelationId,
      iat,
      ...(mastercard ? { iss: SANDBOX_MASTERCARD_ISS } : {}),
    })
    .sign(signing);
  // The service accepts low-S ES256 signatures only (SPEC §4.3 step 2); jose does not normalise.
  const jws = alg === 'ES256' ? withLowS(signed) : signed;

  return input.scheme === 'visa'
    ? { actionCode: 'SUCCESS', checkoutResponse: jws }
    : {
        checkoutActionCode: 'COMPLETE',
        checkoutResponse: jws,
        headers: { 'merchant-transaction-id': randomUUID(), 'x-src-cx-flow-id': randomUUID() },
        network: 'mastercard',
      };
}

/** The `iss` the sandbox puts in a Mastercard-shaped JWS header. */
export const SANDBOX_MASTERCARD_ISS = 'sandbox-src.mastercard.example';

/**
 * The real per-brand shapes (test/fixtures/network-checkout-responses.ts names the sources):
 * Visa's cryptogram is the long form with the ECI in `assuranceData`, Mastercard's the short
 * form (DSRP) with the ECI beside it.
 */
function cryptogramEntry(mastercard: boolean, eci: string) {
  const dynamicDataValue = randomBytes(20).toString('base64');
  return mastercard
    ? { dynamicDataValue, dynamicDataType: 'CARD_APPLICATION_CRYPTOGRAM_SHORT_FORM', eci }
    : { dynamicDataValue, dynamicDataType: 'CARD_APPLICATION_CRYPTOGRAM_LONG_FORM' };
}

/**
 * Visa: the 3DS results of the authentication it ran (`verificationData[].methodResults`);
 * Mastercard: its card verification (`cardVerification*`). Both shapes carry `eci`.
 */
function assuranceData(mastercard: boolean, eci: string): Record<string, unknown> {
  if (mastercard) return { eci, cardVerificationResults: '01', cardVerificationMethod: '02', cardVerificationEntity: '01' };
  const transStatus = eci === '05' ? 'Y' : eci === '06' ? 'A' : 'N';
  return { eci, verificationData: [{ methodResults: { transStatus, dsTransId: randomUUID(), acsTransId: randomUUID() } }] };
}

export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}
