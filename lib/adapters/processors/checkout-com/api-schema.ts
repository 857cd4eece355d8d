import type { Transcription } from '../schema/dsl.js';

/**
 * Transcribed from Checkout.com's published API reference source: repository
 * checkout/checkout-api-reference, folder nas_spec (the "NAS"/Four account structure that
 * api-reference.checkout.com renders; swagger.yaml info.version "1.0.0"), at commit
 * 2fc946cd22e9a6b8e3a33db3c5f4be4d3fe7d74c (2021-07-20, the repository's last). Component names
 * are the files' base names (nas_spec/components/schemas/**\/<name>.yaml), allOf flattened.
 * Only what this service uses: POST /payments with a network_token source and external 3DS,
 * POST /payments/{id}/captures|voids|refunds, GET /payments/{id}/actions, and their answers.
 * Checked by `npm run processors:check-schemas -- checkout-com <path to nas_spec>`.
 *
 * Not in that file: GET /payments?reference= ("Get a list of payments", Beta, added later).
 * PaymentListResponse follows its documentation page (checkout.com/docs/payments/manage-payments/
 * get-a-list-of-payments, updated 2022-09-14: limit, skip, total_count, data[] of payment
 * details, newest first); its items are the published PaymentDetails.
 */
const paymentId = { type: 'string', pattern: '^(pay)_(\\w{26})$', minLength: 30, maxLength: 30 } as const;
const actionId = { type: 'string', pattern: '^(act)_(\\w{26})$', minLength: 30, maxLength: 30 } as const;

export const checkoutComNas: Transcription = {
  source: { repository: 'checkout/checkout-api-reference', path: 'nas_spec', version: '1.0.0', commit: '2fc946cd22e9a6b8e3a33db3c5f4be4d3fe7d74c' },
  components: {
    PaymentRequest: {
      type: 'object',
      required: ['currency'],
      properties: {
        source: { $ref: '04_PaymentRequestNetworkTokenSource' },
        amount: { type: 'integer', minimum: 0 },
        currency: { type: 'string', minLength: 3, maxLength: 3 },
        payment_type: { type: 'string', enum: ['Regular', 'Recurring', 'MOTO', 'Installment'] },
        reference: { type: 'string', maxLength: 50 },
        capture: { type: 'boolean' },
        '3ds': { $ref: '3dsRequest' },
        processing_channel_id: { type: 'string' },
        payment_ip: { $ref: 'IPAddress' },
      },
    },
    '04_PaymentRequestNetworkTokenSource': {
      type: 'object',
      required: ['type', 'token', 'expiry_month', 'expiry_year', 'token_type', 'cryptogram', 'eci'],
      properties: {
        type: { type: 'string', enum: ['network_token'] },
        token: { type: 'string' },
        expiry_month: { type: 'integer', minimum: 1 },
        expiry_year: { type: 'integer' },
        token_type: { type: 'string', enum: ['vts', 'mdes', 'applepay', 'googlepay'] },
        cryptogram: { type: 'string', maxLength: 50 },
        eci: { type: 'string', maxLength: 2 },
        stored: { type: 'boolean' },
      },
    },
    '3dsRequest': {
      type: 'object',
      properties: {
        enabled: { type: 'boolean' },
        attempt_n3d: { type: 'boolean' },
        eci: { type: 'string', maxLength: 2 },
        cryptogram: { type: 'string', maxLength: 50 },
        xid: { type: 'string', maxLength: 100 },
        version: { type: 'string', maxLength: 10 },
        exemption: { type: 'string', enum: ['low_value', 'secure_corporate_payment', 'trusted_listing'] },
      },
    },
    IPAddress: { type: 'string', format: 'ipv4', maxLength: 45 },
    PaymentResponse: {
      type: 'object',
      required: ['id', 'action_id', 'amount', 'currency', 'approved', 'status', 'response_code', 'processed_on', '_links'],
      properties: {
        id: paymentId,
        action_id: actionId,
        amount: { type: 'integer' },
        currency: { type: 'string', minLength: 3, maxLength: 3 },
        approved: { type: 'boolean' },
        status: { type: 'string', enum: ['Authorized', 'Pending', 'Card Verified', 'Captured', 'Declined', 'Paid'] },
        auth_code: { type: 'string' },
        response_code: { type: 'string' },
        response_summary: { type: 'string' },
        processed_on: { type: 'string', format: 'date-time' },
        reference: { type: 'string' },
        eci: { type: 'string' },
        scheme_id: { type: 'string' },
        _links: { type: 'object', required: ['self', 'actions'], properties: {} },
      },
    },
    PaymentAcceptedResponse: {
      type: 'object',
      required: ['id', 'status'],
      properties: {
        id: paymentId,
        status: { type: 'string', enum: ['Pending'] },
        reference: { type: 'string' },
        _links: { type: 'object', required: ['self'], properties: {} },
      },
    },
    PaymentDetails: {
      type: 'object',
      required: ['id', 'requested_on', 'amount', 'currency', 'status', 'approved', '_links'],
      properties: {
        id: paymentId,
        requested_on: { type: 'string', format: 'date-time' },
        amount: { type: 'integer' },
        currency: { type: 'string', minLength: 3, maxLength: 3 },
        reference: { type: 'string' },
        approved: { type: 'boolean' },
        status: {
          type: 'string',
          enum: [
            'Pending',
            'Authorized',
            'Card Verified',
            'Voided',
            'Partially Captured',
            'Captured',
            'Partially Refunded',
            'Refunded',
            'Declined',
            'Canceled',
            'Expired',
            'Paid',
          ],
        },
        _links: { type: 'object', required: ['self', 'actions'], properties: {} },
      },
    },
    PaymentListResponse: {
      type: 'object',
      required: ['data'],
      properties: {
        limit: { type: 'integer' },
        skip: { type: 'integer' },
        total_count: { type: 'integer' },
        data: { type: 'array', items: { $ref: 'PaymentDetails' } },
      },
    },
    CaptureRequest: {
      type: 'object',
      properties: { amount: { type: 'integer', minimum: 0 }, reference: { type: 'string', maxLength: 50 } },
    },
    CaptureAcceptedResponse: {
      type: 'object',
      required: ['action_id'],
      properties: { action_id: actionId, reference: { type: 'string' }, _links: { type: 'object', required: ['payment'], properties: {} } },
    },
    VoidRequest: { type: 'object', properties: { reference: { type: 'string', maxLength: 50 } } },
    VoidAcceptedResponse: {
      type: 'object',
      required: ['action_id'],
      properties: { action_id: actionId, reference: { type: 'string' }, _links: { type: 'object', required: ['payment'], properties: {} } },
    },
    RefundRequest: {
      type: 'object',
      properties: { amount: { type: 'integer', minimum: 0 }, reference: { type: 'string', maxLength: 50 } },
    },
    RefundAcceptedResponse: {
      type: 'object',
      required: ['action_id'],
      properties: { action_id: actionId, reference: { type: 'string' }, _links: { type: 'object', required: ['payment'], properties: {} } },
    },
    PaymentAction: {
      type: 'object',
      required: ['id', 'type', 'amount', 'response_code', 'processed_on'],
      properties: {
        id: actionId,
        type: { type: 'string', enum: ['Authorization', 'Card Verification', 'Void', 'Capture', 'Refund', 'Payout', 'Return'] },
        processed_on: { type: 'string', format: 'date-time' },
        amount: { type: 'integer' },
        approved: { type: 'boolean' },
        auth_code: { type: 'string' },
        response_code: { type: 'string' },
        response_summary: { type: 'string' },
        reference: { type: 'string' },
      },
    },
    PaymentActionsResponse: { type: 'array', items: { $ref: 'PaymentAction' }, minItems: 1 },
    ValidationError: {
      type: 'object',
      properties: { request_id: { type: 'string' }, error_type: { type: 'string' }, error_codes: { type: 'array', items: { type: 'string' } } },
    },
  },
};

/** Components not in the published file (documentation only): the check script skips them. */
export const checkoutComDocumentedOnly = ['PaymentListResponse'] as const;
