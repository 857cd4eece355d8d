import type { Principal } from '../auth/principal.js';
import { toCredential, type PaymentData } from '../checkout/payment-data.js';
import type { Amount } from '../domain/order.js';
import { isOn } from '../domain/payment-methods.js';
import type { Payment } from '../domain/payment.js';
import { AmountMismatchError, CheckoutPayloadInvalidError, ClickToPayNotEnabledError, DirectWalletNotEnabledError } from '../errors.js';
import { brandOf } from './brand.js';
import { browserInfoOf, type PageBrowserInfo } from '../domain/browser-info.js';
import type { PaymentDeps, RequestFacts } from './deps.js';
import { maskPaymentMethod } from './masking.js';
import { loadPaymentContext } from './payment-context.js';
import type { PaymentIds } from './pay-with-click-to-pay.js';
import { assertNotExpired } from './credential-expiry.js';
import { directWalletCredentialKey } from './credential-key.js';
import { assertPayable, runPayment, settledWith } from './run-payment.js';
import { sealablePaymentData, sealToPayloadKey } from './seal.js';

export type DirectWalletBody = PaymentData & { eci?: string; brand?: string; amount?: Amount; browserInfo?: PageBrowserInfo };

/**
 * SPEC 4.4: already-decrypted network token data. Gated by the DIRECT_WALLET proposition
 * (platform and tenant), then steps 7–9 of 4.3. Should 3DS step up, only what 4.10 needs is
 * sealed to our KMS key, like a network's JWE.
 */
export async function payWithDirectWallet(
  deps: PaymentDeps,
  principal: Principal,
  ids: PaymentIds,
  body: DirectWalletBody,
  facts: RequestFacts,
): Promise<Payment> {
  const ctx = await loadPaymentContext(deps, principal, ids);
  if (!isOn(ctx.platform, 'DIRECT_WALLET') || !isOn(ctx.tenant, 'DIRECT_WALLET')) throw new DirectWalletNotEnabledError();
  if (body.amount && (body.amount.value !== ctx.order.amount.value || body.amount.currencyCode !== ctx.order.amount.currencyCode)) {
    throw new AmountMismatchError();
  }
  const credential = toCredential(body); // the schema already ran in the HTTP layer
  assertNotExpired(credential, deps.now());
  const brand = brandOfDeclared(body.brand, credential.number);
  const credentialKey = directWalletCredentialKey(ids.paymentRef, credential);
  if (settledWith(ctx.payment, credentialKey)) return ctx.payment; // the same request again
  assertPayable(ctx.payment);
  if (!ctx.enablement.clickToPay) throw new ClickToPayNotEnabledError();

  return runPayment(
    deps,
    ctx,
    {
      from: 'STARTED',
      credential,
      brand,
      eci: body.eci ?? credential.eci,
      credentialKey,
      masked: maskPaymentMethod('DIRECT_WALLET', brand, credential),
      sealedForThreeDs: async () => ({ jwe: await sealToPayloadKey(deps.keys, sealablePaymentData(credential)), source: 'DIRECT_WALLET' }),
      // The merchant's server calls 4.4: the shopper's User-Agent and languages come in browserInfo, never from this request.
      ...(body.browserInfo ? { browser: browserInfoOf(body.browserInfo, undefined, facts.payerIp) } : {}),
    },
    facts,
  );
}

/**
 * The declared brand, if the number does not contradict it: the brand picks the ECI table of
 * the 3DS decision and the ECI a challenge yields, so a Visa label on a Mastercard number
 * would read Mastercard's 06 (not authenticated) as Visa's "attempted". A number of no known
 * range (brand.ts) takes the declared brand.
 */
function brandOfDeclared(declared: string | undefined, number: string): string {
  const numbered = brandOf(number);
  if (declared === undefined || numbered === 'UNKNOWN') return declared ?? numbered;
  if (declared !== numbered) {
    throw new CheckoutPayloadInvalidError('The brand does not match the card number.', { cause: new Error(`declared ${declared}, number is ${numbered}`) });
  }
  return declared;
}
