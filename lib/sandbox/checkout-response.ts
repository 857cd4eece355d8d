import { randomBytes, randomUUID } from 'node:crypto';
import { CompactEncrypt, CompactSign, importJWK, type JWK } from 'jose';
import { withLowS } from '../checkout/ecdsa-low-s.js';
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
}

/**
 * What a network's SRC system hands the SDK at the end of checkout (SPEC 4.3): a JWS signed
 * by the network whose `encryptedPayload` is a JWE to the merchant's (our) key, wrapped in
 * the SDK result shape of the scheme. Same format the real networks send.
 */
export async function buildSandboxCheckoutResponse(input: SandboxCheckoutInput): Promise<Record<string, unknown>> {
  const { card } = input;
  const eci = input.eci ?? card.eci;
  const cryptogram = randomBytes(20).toString('base64');
  const decrypted = {
    token: { paymentToken: card.token, tokenExpirationMonth: card.expiryMonth, tokenExpirationYear: card.expiryYear },
    dynamicData: [{ dynamicDataValue: cryptogram, dynamicDataType: 'CARD_APPLICATION_CRYPTOGRAM_LONG_FORM' }],
    paymentAccountReference: card.paymentAccountReference,
    eci,
    ...(input.consumerEmail ? { consumerEmailAddress: input.consumerEmail } : {}),
  };
  const recipient = await importJWK(input.recipientKey, 'RSA-OAEP-256');
  const encryptedPayload = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(decrypted)))
    .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: String(input.recipientKey.kid), typ: 'JOSE' })
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
    assuranceData: { eci },
    encryptedPayload,
    iat,
  };
  const alg = String(input.signingKey.alg ?? 'RS256');
  const signing = await importJWK(input.signingKey, alg);
  const signed = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg, kid: String(input.signingKey.kid), jti: input.jti ?? srcCorrelationId, iat })
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

export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}
