/**
 * The Checkout API v71 bodies this adapter builds and reads, typed. Members and constraints are
 * those of the transcription (api-schema.ts); test/processors/adyen/transformers.test.ts checks
 * that what the transformers build passes it.
 */
export interface AdyenAmount {
  currency: string;
  value: number;
}

export interface AdyenMpiData {
  tokenAuthenticationVerificationValue: string;
  eci: string;
  cavv?: string;
  directoryResponse?: string;
  authenticationResponse?: string;
  dsTransID?: string;
  threeDSVersion?: string;
}

export interface AdyenPaymentRequest {
  merchantAccount: string;
  reference: string;
  amount: AdyenAmount;
  returnUrl: string;
  paymentMethod: { type: 'networkToken'; number: string; expiryMonth: string; expiryYear: string };
  mpiData: AdyenMpiData;
  shopperInteraction: 'Ecommerce';
  captureDelayHours?: number;
  additionalData?: Record<string, string>;
  shopperIP?: string;
}

export interface AdyenPaymentResponse {
  resultCode?: string;
  pspReference?: string;
  merchantReference?: string;
  refusalReason?: string;
  refusalReasonCode?: string;
  amount?: AdyenAmount;
  additionalData?: Record<string, string>;
}

export type AdyenModification = 'captures' | 'cancels' | 'refunds';

export interface AdyenModificationRequest {
  merchantAccount: string;
  reference: string;
  amount?: AdyenAmount;
}

export interface AdyenModificationResponse {
  pspReference: string;
  paymentPspReference: string;
  merchantAccount: string;
  reference?: string;
  status: 'received';
  amount?: AdyenAmount;
}

export interface AdyenServiceError {
  status?: number;
  errorCode?: string;
  errorType?: string;
  message?: string;
  pspReference?: string;
}
