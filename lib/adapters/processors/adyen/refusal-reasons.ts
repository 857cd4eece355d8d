import { decline, type Decline, type DeclineReason } from '../decline.js';

/**
 * Adyen refusalReasonCode → the SPEC's decline reasons. Codes and meanings from Adyen's
 * "Refusal reasons" (docs.adyen.com/development-resources/refusal-reasons). The raw code is kept
 * (`adyen:<code>`, plus the issuer's two-digit code from additionalData.refusalReasonRaw when
 * present, `adyen:5/41`); Adyen's refusalReason text is not. Adyen asks not to show refusal
 * details to shoppers: clients only ever see our reason's fixed text.
 */
const BY_CODE: Readonly<Record<string, DeclineReason>> = {
  '2': 'DECLINED', // Refused
  '3': 'REFERRAL', // Referral
  '4': 'ISSUER_UNAVAILABLE', // Acquirer Error
  '5': 'RESTRICTED_CARD', // Blocked Card
  '6': 'CARD_EXPIRED', // Expired Card
  '7': 'TRANSACTION_NOT_PERMITTED', // Invalid Amount
  '8': 'INVALID_CARD', // Invalid Card Number
  '9': 'ISSUER_UNAVAILABLE', // Issuer Unavailable
  '10': 'TRANSACTION_NOT_PERMITTED', // Not supported
  '11': 'THREE_DS_FAILED', // 3D Not Authenticated
  '12': 'INSUFFICIENT_FUNDS', // Not enough balance
  '14': 'SUSPECTED_FRAUD', // Acquirer Fraud
  '15': 'DECLINED', // Cancelled
  '20': 'SUSPECTED_FRAUD', // FRAUD
  '22': 'SUSPECTED_FRAUD', // FRAUD-CANCELLED
  '23': 'TRANSACTION_NOT_PERMITTED', // Transaction Not Permitted
  '24': 'INVALID_CARD', // CVC Declined
  '25': 'RESTRICTED_CARD', // Restricted Card
  '26': 'TRANSACTION_NOT_PERMITTED', // Revocation Of Auth
  '27': 'DO_NOT_HONOUR', // Declined Non Generic
  '28': 'LIMIT_EXCEEDED', // Withdrawal amount exceeded
  '29': 'LIMIT_EXCEEDED', // Withdrawal count exceeded
  '31': 'SUSPECTED_FRAUD', // Issuer Suspected Fraud
  '32': 'DECLINED', // AVS Declined
  '38': 'AUTHENTICATION_REQUIRED', // Authentication required
  '42': 'THREE_DS_FAILED', // 3DS Authentication Error
};

/** Issuer response codes (ISO 8583) that say more than Adyen's grouping: lost and stolen cards. */
const BY_ISSUER_CODE: Readonly<Record<string, DeclineReason>> = { '41': 'LOST_OR_STOLEN', '43': 'LOST_OR_STOLEN' };

export function adyenDecline(refusalReasonCode: string | undefined, refusalReasonRaw: string | undefined): Decline {
  const code = refusalReasonCode ?? 'none';
  const issuer = /^(\d{2})\b/.exec(refusalReasonRaw ?? '')?.[1];
  const reason = (issuer && BY_ISSUER_CODE[issuer]) || BY_CODE[code] || 'PROCESSOR_REFUSED';
  return decline(reason, issuer ? `adyen:${code}/${issuer}` : `adyen:${code}`);
}
