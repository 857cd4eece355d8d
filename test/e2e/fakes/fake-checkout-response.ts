import { randomBytes, randomUUID } from 'node:crypto';
import { CompactEncrypt, CompactSign, importJWK, type JWK } from 'jose';
import type { FakeNetworkName } from './fake-network-keys.js';
import type { FakeCheckout } from './fake-network-state.js';

/**
 * The SDK result of a completed checkout, as each network's SDK resolves it: a JWS signed
 * with the network's key whose `encryptedPayload` is a JWE to the key the merchant (we)
 * registered with the network — here the service's current 4.2 key.
 *
 * Sources for the shapes:
 *  - Visa SDK result `{ actionCode: "SUCCESS", checkoutResponse: <JWS> }`: juspay/hyperswitch-web
 *    src/Types/ClickToPayHelpers.res (visaCheckoutResponse); decrypted payload fields (token |
 *    card, paymentAccountReference, dynamicData list): developer.visa.com "Unencrypted Payload
 *    Contents"; dynamicDataType CARD_APPLICATION_CRYPTOGRAM_LONG_FORM for Visa and _SHORT_FORM
 *    for Mastercard: the same hyperswitch file (paymentOptions) and developer.mastercard.com
 *    "Perform Transaction Authentication".
 *  - Mastercard SDK result `{ checkoutActionCode: "COMPLETE", checkoutResponse, headers, … }`:
 *    SPEC §4.3 and hyperswitch (handleSuccessResponse); its JWS header carries iss, iat, jti, kid
 *    and alg RS256 (the decoded example quoted in docs.bepaid.by/ru/dev_tools/tokenization/scof/,
 *    which shows iat as a string — sent as a number here, see the report of issue 10 item 5).
 *  - assuranceData `{ eci, verificationData: [{ methodResults }] }` (Visa) and `{ eci,
 *    cardVerificationResults, … }` (Mastercard): the two shapes named in issue 10.
 * ECI 05 (Visa) and 02 (Mastercard) mean "fully authenticated" (SPEC §4.3 step 8).
 * Which header fields Visa sets besides alg and kid is not public: none are added.
 */
export async function completedCheckout(input: {
  network: FakeNetworkName;
  checkout: FakeCheckout;
  signingKey: JWK;
  recipientKey: JWK;
}): Promise<Record<string, unknown>> {
  const { network, checkout, signingKey, recipientKey } = input;
  const { card } = checkout;
  const visa = network === 'visa';
  const eci = card.eci ?? (visa ? '05' : '02');
  const decrypted = {
    token: { paymentToken: card.token, tokenExpirationMonth: card.panExpirationMonth, tokenExpirationYear: card.panExpirationYear },
    dynamicData: [
      {
        dynamicDataValue: randomBytes(20).toString('base64'),
        dynamicDataType: visa ? 'CARD_APPLICATION_CRYPTOGRAM_LONG_FORM' : 'CARD_APPLICATION_CRYPTOGRAM_SHORT_FORM',
      },
    ],
    paymentAccountReference: card.paymentAccountReference,
  };
  const encryptedPayload = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(decrypted)))
    .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: String(recipientKey.kid) })
    .encrypt(await importJWK(recipientKey, 'RSA-OAEP-256'));

  const iat = Math.floor(Date.now() / 1000);
  const srcCorrelationId = randomUUID();
  const payload = {
    srcCorrelationId,
    srciTransactionId: randomUUID(),
    maskedCard: {
      srcDigitalCardId: card.srcDigitalCardId,
      panBin: card.panBin,
      panLastFour: card.panLastFour,
      tokenLastFour: card.token.slice(-4),
      panExpirationMonth: card.panExpirationMonth,
      panExpirationYear: card.panExpirationYear,
      paymentCardDescriptor: card.brand,
      digitalCardData: { status: 'ACTIVE', descriptorName: card.descriptorName },
    },
    maskedConsumer: { emailAddress: 'c***@example.com' },
    assuranceData: visa
      ? { eci, verificationData: [{ methodResults: { transStatus: 'Y', dsTransId: randomUUID(), acsTransId: randomUUID() } }] }
      : { eci, cardVerificationResults: '01', cardVerificationMethod: '02', cardVerificationEntity: '03' },
    encryptedPayload,
  };
  const header = visa
    ? { alg: 'RS256', kid: String(signingKey.kid), iat }
    : { alg: 'RS256', kid: String(signingKey.kid), iss: 'https://mastercard.com', iat, jti: srcCorrelationId };
  const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader(header).sign(await importJWK(signingKey, 'RS256'));

  return visa
    ? { actionCode: 'SUCCESS', checkoutResponse: jws }
    : {
        checkoutActionCode: 'COMPLETE',
        checkoutResponse: jws,
        headers: { 'merchant-transaction-id': randomUUID(), 'x-src-cx-flow-id': randomUUID() },
        network: 'mastercard',
      };
}
