import * as z from 'zod';
import { amountSchema } from '../../lib/http/amount-schema.js';
import { freeText, merchantOrderReference } from '../../lib/http/free-text.js';

const printable = (max: number) =>
  freeText(
    z
      .string()
      .trim()
      .min(1)
      .max(max)
      .regex(/^[^\p{Cc}]+$/u, 'No control characters'),
  );

/** SPEC 4.14. `expiresAt`'s window (future, at most 30 days) is checked by the use case: it depends on the clock. */
export const createPaymentLinkBody = z
  .object({
    action: z.enum(['AUTH', 'PURCHASE']),
    amount: amountSchema,
    description: printable(500).optional(),
    merchantOrderReference: merchantOrderReference.optional(),
    expiresAt: z.iso.datetime({ offset: true }).optional(),
    returnUrl: z.string().max(2048).optional(),
  })
  .strict();
