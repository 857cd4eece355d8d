import * as z from 'zod';

/**
 * Request bodies of the sandbox SRC endpoints (docs/sandbox-src-contract.md). Unknown fields
 * are ignored, as a network's API would; known fields are checked strictly.
 */
const sessionId = z.string().min(1).max(128);
const MOBILE_NUMBER = /^\+?[\d\s().-]{7,24}$/;

export const initBody = z.object({
  dpaId: z.string().min(1).max(128),
  dpaClientId: z.string().max(128).optional(),
  locale: z.string().max(35).optional(),
  cardBrands: z
    .array(z.string().regex(/^[A-Za-z]{2,20}$/))
    .min(1)
    .max(8),
});

export const identityLookupBody = z.object({
  sessionId,
  identity: z
    .object({ type: z.enum(['EMAIL', 'MOBILE_NUMBER']), value: z.string().trim().min(1).max(254) })
    .refine(
      (identity) =>
        identity.type === 'EMAIL'
          ? z.email().safeParse(identity.value).success
          : MOBILE_NUMBER.test(identity.value) && identity.value.replace(/\D/g, '').length >= 7 && identity.value.replace(/\D/g, '').length <= 15,
      'Expected an email address or a mobile number',
    ),
});

export const sessionBody = z.object({ sessionId });

export const validateOtpBody = z.object({ sessionId, otp: z.string().max(12) });

export const enrollCardBody = z.object({
  sessionId,
  encryptedCard: z
    .string()
    .min(1)
    .max(16 * 1024),
  brand: z.enum(['VISA', 'MASTERCARD']),
  panBin: z.string().regex(/^\d{6,8}$/),
  panLastFour: z.string().regex(/^\d{4}$/),
  panExpirationMonth: z.string().regex(/^(0?[1-9]|1[0-2])$/),
  panExpirationYear: z.string().regex(/^(\d{2}|\d{4})$/),
  /** Checked, never stored: the network keeps masked data only. */
  cardholderName: z.string().trim().min(1).max(100),
});

export const checkoutBody = z.object({
  sessionId,
  srcDigitalCardId: z.string().min(1).max(128),
  dpaId: z.string().min(1).max(128),
  transactionAmount: z.object({
    transactionAmount: z.number().positive().max(1e10),
    transactionCurrencyCode: z.string().regex(/^[A-Z]{3}$/),
  }),
});

export type InitBody = z.output<typeof initBody>;
export type IdentityLookupBody = z.output<typeof identityLookupBody>;
export type ValidateOtpBody = z.output<typeof validateOtpBody>;
export type EnrollCardBody = z.output<typeof enrollCardBody>;
export type CheckoutBody = z.output<typeof checkoutBody>;

/** Mastercard's confirmations body (lib/adapters/network/mastercard/confirmation-body.ts), as its API would check it. */
export const confirmationBody = z.object({
  srcClientId: z.string().min(1).max(128),
  srcCorrelationId: z.string().min(1).max(256),
  srciTransactionId: z.string().min(1).max(256).optional(),
  confirmationData: z.object({
    checkoutEventType: z.string().regex(/^0[1-7]$/),
    checkoutEventStatus: z.string().regex(/^\d{2}$/),
    confirmationStatus: z
      .string()
      .regex(/^0[1-3]$/)
      .optional(),
    confirmationReason: z.string().max(256).optional(),
    confirmationTimestamp: z.iso.datetime(),
    networkAuthorizationCode: z.string().max(64).optional(),
    networkTransactionIdentifier: z.string().max(64).optional(),
    transactionAmount: z.object({ transactionAmount: z.string().regex(/^\d{1,15}(\.\d{1,3})?$/), transactionCurrencyCode: z.string().regex(/^[A-Z]{3}$/) }),
  }),
});

export const confirmationSearchBody = z.object({ srcCorrelationId: z.string().min(1).max(256) });
export type ConfirmationBody = z.output<typeof confirmationBody>;
