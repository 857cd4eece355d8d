import type { Transcription } from '../../schema/dsl.js';

/**
 * Transcribed from Adyen's published description of its standard webhooks: repository
 * Adyen/adyen-openapi, file json/Webhooks-v1.json (info.version "1"), as of repository commit
 * aa014f0cbdb58ff5c44a2ff9d5fe734642210aff (the file last changed in
 * 02d10c0110523a6a85ae331d2de5ab402c291095). The CAPTURE event's body (CaptureNotificationRequest);
 * AUTHORISATION, CANCELLATION, REFUND… items share its members. The fake's notifications are
 * built to it; the service's parser (parse.ts) reads any event leniently, since Adyen adds event
 * codes. Checked by `npm run processors:check-schemas -- adyen-webhooks <path to Webhooks-v1.json>`.
 */
export const adyenWebhooksV1: Transcription = {
  source: { repository: 'Adyen/adyen-openapi', path: 'json/Webhooks-v1.json', version: '1', commit: 'aa014f0cbdb58ff5c44a2ff9d5fe734642210aff' },
  components: {
    Amount: {
      type: 'object',
      additionalProperties: false,
      required: ['value', 'currency'],
      properties: { currency: { type: 'string', minLength: 3, maxLength: 3 }, value: { type: 'integer', format: 'int64' } },
    },
    CaptureNotificationRequest: {
      type: 'object',
      additionalProperties: false,
      properties: { live: { type: 'string' }, notificationItems: { type: 'array', items: { $ref: 'CaptureNotificationRequestItemWrapper' } } },
    },
    CaptureNotificationRequestItemWrapper: {
      type: 'object',
      properties: { NotificationRequestItem: { $ref: 'CaptureNotificationRequestItem' } },
    },
    CaptureNotificationRequestItem: {
      type: 'object',
      additionalProperties: false,
      required: ['pspReference', 'merchantReference', 'merchantAccountCode', 'eventDate', 'eventCode', 'amount', 'success'],
      properties: {
        additionalData: { $ref: 'CaptureAdditionalData' },
        amount: { $ref: 'Amount' },
        eventCode: {
          type: 'string',
          enum: [
            'AUTHENTICATION',
            'AUTHORISATION',
            'AUTHORISATION_ADJUSTMENT',
            'AUTORESCUE',
            'CANCELLATION',
            'CANCEL_AUTORESCUE',
            'CANCEL_OR_REFUND',
            'CAPTURE',
            'CAPTURE_FAILED',
            'CHARGEBACK',
            'CHARGEBACK_REVERSED',
            'DISPUTE_DEFENSE_PERIOD_ENDED',
            'EXPIRE',
            'HANDLED_EXTERNALLY',
            'INFORMATION_SUPPLIED',
            'ISSUER_COMMENTS',
            'ISSUER_RESPONSE_TIMEFRAME_EXPIRED',
            'MANUAL_REVIEW_ACCEPT',
            'MANUAL_REVIEW_REJECT',
            'NOTIFICATION_OF_CHARGEBACK',
            'NOTIFICATION_OF_FRAUD',
            'OFFER_CLOSED',
            'ORDER_CLOSED',
            'ORDER_OPENED',
            'PAYOUT_DECLINE',
            'PAYOUT_EXPIRE',
            'PAYOUT_THIRDPARTY',
            'POSTPONED_REFUND',
            'PREARBITRATION_LOST',
            'PREARBITRATION_OPEN',
            'PREARBITRATION_WON',
            'RECURRING_CONTRACT',
            'REFUND',
            'REFUNDED_REVERSED',
            'REFUND_FAILED',
            'REFUND_WITH_DATA',
            'REQUEST_FOR_INFORMATION',
            'SECOND_CHARGEBACK',
            'TECHNICAL_CANCEL',
            'VOID_PENDING_REFUND',
          ],
        },
        eventDate: { type: 'string', format: 'date-time' },
        merchantAccountCode: { type: 'string' },
        merchantReference: { type: 'string' },
        originalReference: { type: 'string' },
        paymentMethod: { type: 'string' },
        pspReference: { type: 'string' },
        reason: { type: 'string' },
        success: { type: 'string' },
      },
    },
    CaptureAdditionalData: {
      type: 'object',
      additionalProperties: false,
      properties: { hmacSignature: { type: 'string' } },
    },
  },
};
