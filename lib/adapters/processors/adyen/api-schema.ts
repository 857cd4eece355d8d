import type { Transcription } from '../schema/dsl.js';

/**
 * Transcribed from Adyen's published OpenAPI description of the Checkout API v71:
 * repository Adyen/adyen-openapi, file json/CheckoutService-v71.json (info.version "71"),
 * as of repository commit aa014f0cbdb58ff5c44a2ff9d5fe734642210aff (the file last changed in
 * 74fabab0628019206b77c4823776b726345a035d, blob 555f1bbdc6dc33d8f7af5d54a0a2e223fb5430f9).
 * Only the operations and members this service uses: POST /payments,
 * /payments/{paymentPspReference}/captures|cancels|refunds, and their answers. Keywords are
 * copied as published (required, types, formats, enums, maxLength, closed objects); a member
 * not listed here is one we never send. Checked against the published file by
 * `npm run processors:check-schemas -- adyen <path to CheckoutService-v71.json>`.
 *
 * `PaymentRequest.paymentMethod` is published as a oneOf of 58 payment-method details; the one
 * used here is CardDetails (type networkToken).
 */
export const adyenCheckoutV71: Transcription = {
  source: { repository: 'Adyen/adyen-openapi', path: 'json/CheckoutService-v71.json', version: '71', commit: 'aa014f0cbdb58ff5c44a2ff9d5fe734642210aff' },
  components: {
    Amount: {
      type: 'object',
      additionalProperties: false,
      required: ['currency', 'value'],
      properties: {
        currency: { type: 'string', minLength: 3, maxLength: 3 },
        value: { type: 'integer', format: 'int64' },
      },
    },
    PaymentRequest: {
      type: 'object',
      additionalProperties: false,
      required: ['amount', 'merchantAccount', 'paymentMethod', 'reference', 'returnUrl'],
      properties: {
        additionalData: { type: 'object', properties: {}, additionalProperties: { type: 'string' } },
        amount: { $ref: 'Amount' },
        captureDelayHours: { type: 'integer', format: 'int32' },
        merchantAccount: { type: 'string' },
        mpiData: { $ref: 'ThreeDSecureData' },
        paymentMethod: { $ref: 'CardDetails' },
        recurringProcessingModel: { type: 'string', enum: ['CardOnFile', 'Subscription', 'UnscheduledCardOnFile'] },
        reference: { type: 'string' },
        returnUrl: { type: 'string', maxLength: 8000 },
        shopperIP: { type: 'string', maxLength: 1000 },
        shopperInteraction: { type: 'string', enum: ['Ecommerce', 'ContAuth', 'Moto', 'POS'] },
      },
    },
    CardDetails: {
      type: 'object',
      additionalProperties: false,
      properties: {
        brand: { type: 'string' },
        expiryMonth: { type: 'string' },
        expiryYear: { type: 'string' },
        number: { type: 'string' },
        type: { type: 'string', enum: ['bcmc', 'scheme', 'networkToken', 'giftcard', 'card', 'clicktopay'] },
      },
    },
    ThreeDSecureData: {
      type: 'object',
      additionalProperties: false,
      properties: {
        authenticationResponse: { type: 'string', enum: ['Y', 'N', 'U', 'A'] },
        cavv: { type: 'string', format: 'byte' },
        directoryResponse: { type: 'string', enum: ['A', 'C', 'D', 'I', 'N', 'R', 'U', 'Y'] },
        dsTransID: { type: 'string' },
        eci: { type: 'string' },
        threeDSVersion: { type: 'string' },
        tokenAuthenticationVerificationValue: { type: 'string', format: 'byte' },
      },
    },
    PaymentResponse: {
      type: 'object',
      additionalProperties: false,
      properties: {
        additionalData: { type: 'object', properties: {}, additionalProperties: { type: 'string' } },
        amount: { $ref: 'Amount' },
        merchantReference: { type: 'string' },
        pspReference: { type: 'string' },
        refusalReason: { type: 'string' },
        refusalReasonCode: { type: 'string' },
        resultCode: {
          type: 'string',
          enum: [
            'AuthenticationFinished',
            'AuthenticationNotRequired',
            'Authorised',
            'Cancelled',
            'ChallengeShopper',
            'Error',
            'IdentifyShopper',
            'PartiallyAuthorised',
            'Pending',
            'PresentToShopper',
            'Received',
            'RedirectShopper',
            'Refused',
            'Success',
          ],
        },
      },
    },
    PaymentCaptureRequest: {
      type: 'object',
      additionalProperties: false,
      required: ['amount', 'merchantAccount'],
      properties: { amount: { $ref: 'Amount' }, merchantAccount: { type: 'string' }, reference: { type: 'string' } },
    },
    PaymentCaptureResponse: {
      type: 'object',
      additionalProperties: false,
      required: ['amount', 'merchantAccount', 'paymentPspReference', 'pspReference', 'status'],
      properties: {
        amount: { $ref: 'Amount' },
        merchantAccount: { type: 'string' },
        paymentPspReference: { type: 'string' },
        pspReference: { type: 'string' },
        reference: { type: 'string' },
        status: { type: 'string', enum: ['received'] },
      },
    },
    PaymentCancelRequest: {
      type: 'object',
      additionalProperties: false,
      required: ['merchantAccount'],
      properties: { merchantAccount: { type: 'string' }, reference: { type: 'string' } },
    },
    PaymentCancelResponse: {
      type: 'object',
      additionalProperties: false,
      required: ['merchantAccount', 'paymentPspReference', 'pspReference', 'status'],
      properties: {
        merchantAccount: { type: 'string' },
        paymentPspReference: { type: 'string' },
        pspReference: { type: 'string' },
        reference: { type: 'string' },
        status: { type: 'string', enum: ['received'] },
      },
    },
    PaymentRefundRequest: {
      type: 'object',
      additionalProperties: false,
      required: ['amount', 'merchantAccount'],
      properties: { amount: { $ref: 'Amount' }, merchantAccount: { type: 'string' }, reference: { type: 'string' } },
    },
    PaymentRefundResponse: {
      type: 'object',
      additionalProperties: false,
      required: ['amount', 'merchantAccount', 'paymentPspReference', 'pspReference', 'status'],
      properties: {
        amount: { $ref: 'Amount' },
        merchantAccount: { type: 'string' },
        paymentPspReference: { type: 'string' },
        pspReference: { type: 'string' },
        reference: { type: 'string' },
        status: { type: 'string', enum: ['received'] },
      },
    },
    ServiceError: {
      type: 'object',
      additionalProperties: false,
      properties: {
        errorCode: { type: 'string' },
        errorType: { type: 'string' },
        message: { type: 'string' },
        pspReference: { type: 'string' },
        status: { type: 'integer', format: 'int32' },
      },
    },
  },
};

/** Which transcribed component each operation's request and 2xx answer are (the check script reads the paths too). */
export const adyenOperations = {
  payments: { method: 'post', path: '/payments', request: 'PaymentRequest', answer: { status: 200, schema: 'PaymentResponse' } },
  captures: {
    method: 'post',
    path: '/payments/{paymentPspReference}/captures',
    request: 'PaymentCaptureRequest',
    answer: { status: 201, schema: 'PaymentCaptureResponse' },
  },
  cancels: {
    method: 'post',
    path: '/payments/{paymentPspReference}/cancels',
    request: 'PaymentCancelRequest',
    answer: { status: 201, schema: 'PaymentCancelResponse' },
  },
  refunds: {
    method: 'post',
    path: '/payments/{paymentPspReference}/refunds',
    request: 'PaymentRefundRequest',
    answer: { status: 201, schema: 'PaymentRefundResponse' },
  },
} as const;
