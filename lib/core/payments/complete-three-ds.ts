import type { Principal } from '../auth/principal.js';
import { decryptCheckoutJwe } from '../checkout/jwe.js';
import { parseDecryptedPayload } from '../checkout/payment-data.js';
import type { Payment } from '../domain/payment.js';
import { InvalidRequestError, PaymentStateConflictError } from '../errors.js';
import { brandOf } from './brand.js';
import type { PaymentDeps, RequestFacts } from './deps.js';
import { maskPaymentMethod } from './masking.js';
import { loadPaymentContext } from './payment-context.js';
import type { PaymentIds } from './pay-with-click-to-pay.js';
import { threeDsCredentialKey } from './credential-key.js';
import { failWithoutAuthorization } from './fail-without-authorization.js';
import { runPayment, settledWith } from './run-payment.js';
import { parseCres } from './cres.js';
import { authenticatedEci } from './three-ds-policy.js';
import { recordThreeDsResult } from './payment-metrics.js';

/**
 * SPEC 4.10: allowed only in AWAIT_3DS. The cres the browser brings only names the challenge
 * (both transaction ids must match the one this payment started); the outcome is the 3DS
 * server's (its RReq), and a cres that contradicts it fails the payment. The kept JWE is then
 * decrypted again through KMS and the payment authorized with the authenticated ECI, or failed.
 */
export async function completeThreeDs(deps: PaymentDeps, principal: Principal, ids: PaymentIds, cresValue: string, facts: RequestFacts): Promise<Payment> {
  const ctx = await loadPaymentContext(deps, principal, ids, facts.readAhead);
  const cres = parseCres(cresValue);
  const transactionId = cres.threeDSServerTransID;
  if (settledWith(ctx.payment, threeDsCredentialKey(transactionId))) return ctx.payment; // the same cres again
  const waiting = ctx.payment.state === 'AWAIT_3DS' || (ctx.payment.state === 'PROCESSING' && ctx.payment.leaseFrom === 'AWAIT_3DS');
  if (!waiting) throw new PaymentStateConflictError(`The payment is ${ctx.payment.state}; 3DS can only complete a payment in AWAIT_3DS.`);

  const pending = await deps.payments.getPendingThreeDs(ids.orderRef, ids.paymentRef, deps.now());
  if (pending && (pending.transactionId !== transactionId || pending.acsTransactionId !== cres.acsTransID)) {
    throw new InvalidRequestError('The cres does not belong to this payment’s challenge.', { errors: [{ path: 'cres', message: 'Unknown transaction' }] });
  }
  const masked = ctx.payment.paymentMethod;
  const credentialKey = threeDsCredentialKey(pending?.transactionId ?? transactionId);
  const fail = (code: string, reason: string) => failWithoutAuthorization(deps, ctx, { from: 'AWAIT_3DS', credentialKey }, { code, reason }, facts);
  const environment = ctx.merchant?.environment ?? 'production';
  if (!pending) return fail('THREE_DS_EXPIRED', 'The 3DS challenge expired').then(counted(() => recordThreeDsResult(environment, 'expired')));

  const server = deps.threeDsServers[pending.environment === 'sandbox' ? 'sandbox' : 'production'];
  const verdict = await server.challengeResult({ transactionId, acsTransactionId: pending.acsTransactionId }, cres);
  if (verdict.kind === 'pending') throw new PaymentStateConflictError('The 3DS challenge has not been completed yet.');
  if (verdict.transStatus !== cres.transStatus) {
    facts.logger.warn('the cres contradicts the 3DS server’s result', { paymentRef: ids.paymentRef, cres: cres.transStatus, result: verdict.transStatus });
  }
  if (verdict.transStatus !== 'Y' || cres.transStatus !== 'Y') {
    return fail('THREE_DS_FAILED', 'Cardholder authentication failed').then(counted(() => recordThreeDsResult(environment, 'failed')));
  }
  recordThreeDsResult(environment, 'authenticated');

  const plaintext = await decryptCheckoutJwe(pending.jwe, deps.keys);
  const credential = parseDecryptedPayload(plaintext);
  const brand = masked?.brand ?? brandOf(credential.number);
  return runPayment(
    deps,
    ctx,
    {
      from: 'AWAIT_3DS',
      credential,
      credentialKey,
      brand,
      eci: verdict.eci ?? authenticatedEci(brand),
      masked: masked ?? maskPaymentMethod(pending.source, brand, credential),
    },
    facts,
  );
}

/** Records once the write that makes the result true has landed. */
const counted =
  (record: () => void) =>
  (payment: Payment): Payment => {
    record();
    return payment;
  };
