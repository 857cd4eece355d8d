import { decline, type Decline, type DeclineReason } from '../decline.js';

/**
 * Checkout.com response_code → the SPEC's decline reasons. Ranges and codes from Checkout.com's
 * "API response codes" (checkout.com/docs/resources/codes/http-response-codes): 20xxx soft
 * declines, 30xxx hard declines, 40xxx risk responses. The raw code is kept
 * (`checkout_com:<code>`); response_summary text is not.
 */
const BY_CODE: Readonly<Record<string, DeclineReason>> = {
  '20001': 'REFERRAL', // Refer to card issuer
  '20002': 'REFERRAL', // Refer to card issuer - special conditions
  '20005': 'DO_NOT_HONOUR', // Declined - Do not honour
  '20012': 'TRANSACTION_NOT_PERMITTED', // Invalid transaction
  '20014': 'INVALID_CARD', // Invalid card number
  '20046': 'RESTRICTED_CARD', // Closed account
  '20051': 'INSUFFICIENT_FUNDS', // Insufficient funds
  '20054': 'CARD_EXPIRED', // Expired card
  '20057': 'TRANSACTION_NOT_PERMITTED', // Transaction not permitted to cardholder
  '20058': 'TRANSACTION_NOT_PERMITTED', // Transaction not permitted to terminal
  '20059': 'SUSPECTED_FRAUD', // Suspected fraud
  '20061': 'LIMIT_EXCEEDED', // Exceeds withdrawal value/amount limits
  '20062': 'RESTRICTED_CARD', // Restricted card
  '20065': 'LIMIT_EXCEEDED', // Exceeds withdrawal frequency limit
  '20091': 'ISSUER_UNAVAILABLE', // Issuer unavailable
  '20096': 'ISSUER_UNAVAILABLE', // System malfunction
  '20150': 'AUTHENTICATION_REQUIRED', // Card not 3D Secure enabled
  '20153': 'THREE_DS_FAILED', // 3D Secure system malfunction
  '20154': 'AUTHENTICATION_REQUIRED', // 3D Secure authentication required
  '30004': 'RESTRICTED_CARD', // Pick up card (no fraud)
  '30007': 'RESTRICTED_CARD', // Pick up card - special conditions
  '30041': 'LOST_OR_STOLEN', // Lost card - pick up
  '30043': 'LOST_OR_STOLEN', // Stolen card - pick up
};

export function checkoutComDecline(responseCode: string | undefined): Decline {
  const code = responseCode ?? 'none';
  const reason = BY_CODE[code] ?? byRange(code);
  return decline(reason, `checkout_com:${code}`);
}

function byRange(code: string): DeclineReason {
  if (/^20\d{3}$/.test(code)) return 'DECLINED';
  if (/^4\d{4}$/.test(code)) return 'SUSPECTED_FRAUD';
  return 'PROCESSOR_REFUSED';
}
