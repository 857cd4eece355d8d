/**
 * `refused`: this payment already took this checkout response to an answer no retry can change
 * (steps 5–6: it does not decrypt, or its payload is invalid; step 7: the payment was already
 * settled, which is final); its code, so the repeat is answered without another KMS Decrypt.
 */
export type ReplayClaim = { outcome: 'claimed'; refused?: Refusal } | { outcome: 'held'; paymentRef: string };
export type RefusalCode = 'CHECKOUT_DECRYPTION_FAILED' | 'CHECKOUT_PAYLOAD_INVALID' | 'PAYMENT_STATE_CONFLICT';
/** The code and the client's detail text (fixed texts: never card data). */
export interface Refusal {
  code: RefusalCode;
  detail: string;
}

/**
 * The replay guard of SPEC 4.3 step 4: one record per checkout response (hashed jti or
 * srcCorrelationId), claimed by one payment. An expired claim counts as absent.
 */
export interface ReplayStore {
  claim(replayKey: string, paymentRef: string, now: number): Promise<ReplayClaim>;
  refuse(replayKey: string, paymentRef: string, refusal: Refusal): Promise<void>;
}
