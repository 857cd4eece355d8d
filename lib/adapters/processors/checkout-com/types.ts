/**
 * The Checkout.com bodies this adapter builds and reads, typed; members and constraints as in
 * the transcription (api-schema.ts), which test/processors/checkout-com/transformers.test.ts
 * holds what the transformers build to.
 */
export interface CkoNetworkTokenSource {
  type: 'network_token';
  token: string;
  expiry_month: number;
  expiry_year: number;
  token_type: 'vts' | 'mdes';
  cryptogram: string;
  eci: string;
}

export interface CkoThreeDs {
  enabled: true;
  eci: string;
  cryptogram: string;
  xid: string;
  version: string;
}

export interface CkoPaymentRequest {
  source: CkoNetworkTokenSource;
  amount: number;
  currency: string;
  payment_type: 'Regular';
  reference: string;
  capture: boolean;
  processing_channel_id: string;
  '3ds'?: CkoThreeDs;
  payment_ip?: string;
}

/** 201 (processed) or 202 (pending) answer of POST /payments. */
export interface CkoPaymentAnswer {
  id: string;
  status: string;
  approved?: boolean;
  action_id?: string;
  amount?: number;
  currency?: string;
  auth_code?: string;
  response_code?: string;
  reference?: string;
}

export type CkoAction = 'captures' | 'voids' | 'refunds';

export interface CkoActionRequest {
  reference: string;
  amount?: number;
}

export interface CkoActionAccepted {
  action_id: string;
  reference?: string;
}

export interface CkoPaymentDetails {
  id: string;
  amount: number;
  currency: string;
  status: string;
  approved: boolean;
  reference?: string;
}

export interface CkoPaymentAction {
  id: string;
  type: string;
  amount: number;
  approved?: boolean;
  response_code: string;
  reference?: string;
}
