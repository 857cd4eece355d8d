import type { ConfirmationOutcome, NetworkConfirmation } from '../../../core/ports/network-client.js';

/**
 * Mastercard's confirmations API (Mastercard Checkout Solutions, "Report the Transaction
 * Results": POST …/srci/api/checkout/confirmations, answered 204 No Content;
 * https://developer.mastercard.com/mastercard-checkout-solutions/tutorial/integrate_apis/step10/).
 * Body as Mastercard's published API specification names it (the `ConfirmationData` model of
 * its generated clients): srcClientId, srcCorrelationId and `confirmationData` with
 * checkoutEventType, checkoutEventStatus, confirmationStatus, confirmationReason,
 * confirmationTimestamp (UTC ISO 8601), networkAuthorizationCode, networkTransactionIdentifier
 * ("required only when checkoutEventType=01 … if unknown, pass UNAVLB") and transactionAmount
 * {transactionAmount (a decimal in major units), transactionCurrencyCode (ISO 4217 alpha-3)}.
 *
 * The codes are EMVCo SRC's: checkoutEventType 01 Authorise, 02 Capture, 03 Refund, 04 Cancel;
 * checkoutEventStatus 01 Created, 02 Confirmed, 03 Cancelled; confirmationStatus 01 Success,
 * 02 Failure. Mastercard's step-10 page also tabulates which pair it expects per merchant
 * action; this table is our reading of it and the one place to adjust at certification.
 */
export const CHECKOUT_EVENT_CODES: Readonly<
  Record<ConfirmationOutcome, { checkoutEventType: string; checkoutEventStatus: string; confirmationStatus: string }>
> = {
  AUTHORISED: { checkoutEventType: '01', checkoutEventStatus: '01', confirmationStatus: '01' },
  DECLINED: { checkoutEventType: '01', checkoutEventStatus: '03', confirmationStatus: '02' },
  CAPTURED: { checkoutEventType: '02', checkoutEventStatus: '02', confirmationStatus: '01' },
  REFUNDED: { checkoutEventType: '03', checkoutEventStatus: '02', confirmationStatus: '01' },
  REVERSED: { checkoutEventType: '04', checkoutEventStatus: '03', confirmationStatus: '01' },
};

export interface MastercardConfirmationBody {
  srcClientId: string;
  srcCorrelationId: string;
  srciTransactionId?: string;
  confirmationData: {
    checkoutEventType: string;
    checkoutEventStatus: string;
    confirmationStatus: string;
    confirmationReason: string;
    confirmationTimestamp: string;
    networkAuthorizationCode?: string;
    networkTransactionIdentifier?: string;
    transactionAmount: { transactionAmount: string; transactionCurrencyCode: string };
  };
}

/** The wire body for one confirmation: a pure function of it, so every retry sends the same bytes. */
export function mastercardConfirmationBody(confirmation: NetworkConfirmation, srcClientId: string): MastercardConfirmationBody {
  const codes = CHECKOUT_EVENT_CODES[confirmation.outcome];
  return {
    srcClientId,
    srcCorrelationId: confirmation.srcCorrelationId,
    ...(confirmation.srciTransactionId ? { srciTransactionId: confirmation.srciTransactionId } : {}),
    confirmationData: {
      ...codes,
      confirmationReason: confirmation.reason ?? confirmation.outcome,
      confirmationTimestamp: confirmation.occurredAt,
      ...(confirmation.authorizationCode ? { networkAuthorizationCode: confirmation.authorizationCode } : {}),
      // The acquirer does not hand us the network's trace id: Mastercard's documented "unknown".
      ...(codes.checkoutEventType === '01' ? { networkTransactionIdentifier: 'UNAVLB' } : {}),
      transactionAmount: {
        transactionAmount: majorUnits(confirmation.amount.value, confirmation.amount.currencyCode),
        transactionCurrencyCode: confirmation.amount.currencyCode,
      },
    },
  };
}

/** 1050 AED → "10.50", 1050 JPY → "1050", 1050 BHD → "1.050" (the currency's ISO 4217 exponent). */
export function majorUnits(minor: number, currencyCode: string): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency: currencyCode }).resolvedOptions().maximumFractionDigits ?? 2;
  if (digits === 0) return String(minor);
  const text = String(minor).padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}
