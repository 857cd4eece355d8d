/** What the Adyen fake performed: one entry per operation, whatever the number of requests. */
export interface AdyenLedgerEntry {
  operation: 'AUTHORISE' | 'CAPTURE' | 'CANCEL' | 'REFUND';
  idempotencyKey: string;
  reference: string;
  pspReference: string;
  paymentPspReference?: string;
  amount?: { currency: string; value: number };
  /** For an authorization: the resultCode it got. For a modification: whether it will succeed. */
  result: string;
}

/**
 * Amounts that decide an authorization (documented in docs/design/processors.md "Fakes"):
 * ending 51 → Refused 12 (raw 51), 05 → Refused 27 (raw 05), 54 → Refused 6 (raw 54),
 * 41 → Refused 5 (raw 41, lost card), 62 → Refused 25, 96 → Error 4, 77 → Received (the
 * AUTHORISATION notification decides: approved), 78 → Received (declined); otherwise Authorised.
 */
export function authorisationFor(value: number): { resultCode: string; refusalReasonCode?: string; refusalReasonRaw?: string; notified?: boolean } {
  const end = String(value).padStart(2, '0').slice(-2);
  switch (end) {
    case '51':
      return { resultCode: 'Refused', refusalReasonCode: '12', refusalReasonRaw: '51 : Insufficient funds' };
    case '05':
      return { resultCode: 'Refused', refusalReasonCode: '27', refusalReasonRaw: '05 : Do not honour' };
    case '54':
      return { resultCode: 'Refused', refusalReasonCode: '6', refusalReasonRaw: '54 : Expired card' };
    case '41':
      return { resultCode: 'Refused', refusalReasonCode: '5', refusalReasonRaw: '41 : Lost card' };
    case '62':
      return { resultCode: 'Refused', refusalReasonCode: '25', refusalReasonRaw: '62 : Restricted card' };
    case '96':
      return { resultCode: 'Error', refusalReasonCode: '4' };
    case '77':
      return { resultCode: 'Received', notified: true };
    case '78':
      return { resultCode: 'Received', notified: false };
    default:
      return { resultCode: 'Authorised' };
  }
}
