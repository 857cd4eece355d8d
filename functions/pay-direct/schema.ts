import * as z from 'zod';
import { paymentDataSchema } from '../../lib/core/checkout/payment-data.js';
import { amountSchema } from '../../lib/http/amount-schema.js';
import { browserInfoSchema } from '../../lib/core/domain/browser-info.js';

/** SPEC 4.4: the decrypted payload's shape plus optional eci, brand and amount. */
export const directWalletBody = paymentDataSchema.extend({
  eci: z
    .string()
    .regex(/^\d{2}$/, 'Expected a two-digit ECI')
    .optional(),
  brand: z.enum(['VISA', 'MASTERCARD', 'AMEX', 'DISCOVER']).optional(),
  amount: amountSchema.optional(),
  /**
   * The shopper's browser, for a production step-up (SPEC 4.17): 4.4 comes from the merchant's
   * server, so `userAgent` (and `acceptLanguage`) must be the shopper's, given here.
   */
  browserInfo: browserInfoSchema.optional(),
});
