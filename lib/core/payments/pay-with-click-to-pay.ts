import { createHash } from 'node:crypto';
import type { Principal } from '../auth/principal.js';
import { decryptCheckoutJwe } from '../checkout/jwe.js';

import { verifyCheckoutJws, type VerifiedCheckout } from '../checkout/jws.js';
import { parseDecryptedPayload, resolveEci } from '../checkout/payment-data.js';
import { completedCheckout, type CheckoutRequestBody } from '../checkout/sdk-result.js';
import type { Payment } from '../domain/payment.js';
import {
  CheckoutDecryptionFailedError,
  CheckoutPayloadInvalidError,
  CheckoutResponseReplayedError,
  CheckoutSignatureInvalidError,
  ClickToPayNotEnabledError,
  PaymentStateConflictError,
} from '../errors.js';
import { brandOf } from './brand.js';
import { browserInfoOf } from '../domain/browser-info.js';
import type { PaymentDeps, RequestFacts } from './deps.js';
import { maskPaymentMethod } from './masking.js';
import { loadPaymentContext } from './payment-context.js';
import { assertNotExpired } from './credential-expiry.js';
import { checkoutCredentialKey } from './credential-key.js';
import { assertPayable, runPayment, settledWith } from './run-payment.js';
import { isSettled } from './lease.js';
import { recordReplayRefused } from './payment-metrics.js';
import { SANDBOX_NETWORK } from '../domain/networks.js';
import type { Refusal } from '../ports/replay-store.js';

export interface PaymentIds {
  outletId: string;
  orderRef: string;
  paymentRef: string;
}

/** SPEC 4.3, steps 1–9 in the SPEC's order (after the scope check, which is a 404). */
export async function payWithClickToPay(
  deps: PaymentDeps,
  principal: Principal,
  ids: PaymentIds,
  body: CheckoutRequestBody,
  facts: RequestFacts,
): Promise<Payment> {
  const ctx = await loadPaymentContext(deps, principal, ids, facts.readAhead);
  const request = completedCheckout(body); // step 1: the body was validated by the HTTP layer; action code

  let network: string | undefined; // step 2: JWS against the trusted network keys
  const verified = await verifyCheckoutJws(
    request.jws,
    async ({ kid, alg }) => {
      const resolved = await deps.networks.resolve(kid, alg, request.network); // the SDK shape's network first
      network = resolved.network;
      return resolved.key;
    },
    { maxAgeSeconds: deps.settings.checkoutMaxAgeSeconds, now: deps.now },
  );
  if (network === SANDBOX_NETWORK && ctx.merchant?.environment !== 'sandbox') {
    throw new CheckoutSignatureInvalidError(undefined, { cause: new Error('sandbox network key used for a production merchant') });
  }

  // Step 4 before step 5, never beside it: KMS's RSA Decrypt quota is shared by the account
  // (the first limit the scale plan names), so a replayed or repeated checkout response must
  // be answered without spending a Decrypt on it.
  const checkoutKey = replayKeyOf(network!, verified); // step 4: replay guard
  const claim = await deps.replay.claim(checkoutKey, ids.paymentRef, deps.now());
  if (claim.outcome === 'held') {
    recordReplayRefused();
    throw new CheckoutResponseReplayedError();
  }
  if (settledWith(ctx.payment, checkoutCredentialKey(checkoutKey))) return ctx.payment; // the same checkout response again
  if (claim.refused) throw refusedAgain(claim.refused); // its final answer again, without a Decrypt

  const refuse = async (error: unknown): Promise<never> => {
    const refusal = refusalOf(error, ctx.payment);
    if (refusal) {
      await deps.replay.refuse(checkoutKey, ids.paymentRef, refusal).catch((writeError: unknown) => {
        facts.logger.warn('checkout refusal not recorded; a repeat will decrypt again', { paymentRef: ids.paymentRef, error: writeError });
      });
    }
    throw error;
  };
  const { credential, eci, brand } = await openPayload(deps, verified).catch(refuse);

  try {
    assertPayable(ctx.payment); // step 7
  } catch (error) {
    await refuse(error);
  }
  if (!ctx.enablement.clickToPay) throw new ClickToPayNotEnabledError();

  const encryptedPayload = verified.payload.encryptedPayload;
  return runPayment(
    deps,
    ctx,
    {
      from: 'STARTED',
      credential,
      brand,
      eci,
      masked: maskPaymentMethod('CLICK_TO_PAY', brand, credential, verified.payload.maskedCard),
      credentialKey: checkoutCredentialKey(checkoutKey),
      srcCheckout: srcCheckoutOf(network!, verified),
      sealedForThreeDs: async () => ({ jwe: encryptedPayload, source: 'CLICK_TO_PAY' }),
      ...(body.browserInfo ? { browser: browserInfoOf(body.browserInfo, facts.browserHeaders, facts.payerIp) } : {}),
    },
    facts,
  );
}

/** Steps 5 and 6: decrypt (KMS), parse, check expiry and the ECI. */
async function openPayload(deps: PaymentDeps, verified: VerifiedCheckout) {
  const plaintext = await decryptCheckoutJwe(verified.payload.encryptedPayload, deps.keys); // step 5
  const credential = parseDecryptedPayload(plaintext); // step 6
  assertNotExpired(credential, deps.now());
  const brand = brandOf(credential.number);
  return { credential, brand, eci: resolveEci(credential, verified.payload.assuranceData?.eci, brand) };
}

/**
 * Answers that are final for this checkout response and payment: a 422 of steps 5–6 (the same
 * bytes never decrypt or parse otherwise) and a 409 for a payment already settled (a settled
 * payment never becomes payable again). 503 and 500 are not (a retry must reach KMS again).
 */
function refusalOf(error: unknown, payment: Payment): Refusal | undefined {
  if (error instanceof CheckoutDecryptionFailedError) return { code: error.code, detail: error.message };
  if (error instanceof CheckoutPayloadInvalidError) return { code: error.code, detail: error.message };
  if (error instanceof PaymentStateConflictError && isSettled(payment)) return { code: error.code, detail: error.message };
  return undefined;
}

const refusedAgain = ({ code, detail }: Refusal) => {
  const cause = new Error('the same checkout response was refused before for this payment');
  if (code === 'CHECKOUT_DECRYPTION_FAILED') return new CheckoutDecryptionFailedError(undefined, { cause });
  if (code === 'PAYMENT_STATE_CONFLICT') return new PaymentStateConflictError(detail || 'The payment cannot be paid again.', { cause });
  return new CheckoutPayloadInvalidError(detail || 'The payment data is invalid.', { cause });
};

/** The SRC ids a network confirmation quotes (lib/core/network/confirmation.ts); no card data. */
function srcCheckoutOf(network: string, verified: VerifiedCheckout) {
  const { srcCorrelationId, srciTransactionId } = verified.payload;
  return { network, srcCorrelationId, ...(srciTransactionId ? { srciTransactionId } : {}) };
}

/** One key per checkout response and network: the JWS `jti`, else the SRC correlation id. */
function replayKeyOf(network: string, verified: VerifiedCheckout): string {
  const id = verified.jti ? `jti:${verified.jti}` : `src:${verified.payload.srcCorrelationId}`;
  return createHash('sha256').update(`${network}\u0000${id}`).digest('hex');
}
