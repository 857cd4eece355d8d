import * as z from 'zod';
import { amountSchema } from '../../lib/http/amount-schema.js';
import { merchantOrderReference } from '../../lib/http/free-text.js';

/**
 * A return or cancel URL as a string of bounded length; whether it may be used (scheme,
 * credentials, fragment, the merchant's redirectOrigins) is the use case's 422
 * INVALID_REDIRECT_URL (lib/core/domain/redirect-url.ts).
 */
const redirectUrl = z.string().min(1).max(2048);

export const createOrderBody = z
  .object({
    action: z.enum(['AUTH', 'PURCHASE']),
    amount: amountSchema,
    merchantOrderReference: merchantOrderReference.optional(),
    emailAddress: z.email().max(254).optional(),
    /** Hosted payment page (4.8): the 201 then carries checkoutUrl and checkoutExpiresAt. */
    returnUrl: redirectUrl.optional(),
    /** Where "Cancel" sends the shopper; only with returnUrl (absent: returnUrl). */
    cancelUrl: redirectUrl.optional(),
  })
  .strict()
  .refine((body) => body.cancelUrl === undefined || body.returnUrl !== undefined, { path: ['cancelUrl'], message: 'cancelUrl needs a returnUrl' });
