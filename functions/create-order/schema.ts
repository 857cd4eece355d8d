import * as z from 'zod';
import { amountSchema } from '../../lib/http/amount-schema.js';

export const createOrderBody = z
  .object({
    action: z.enum(['AUTH', 'PURCHASE']),
    amount: amountSchema,
    merchantOrderReference: z.string().trim().min(1).max(64).regex(/^[\x20-\x7E]+$/, 'Printable ASCII only').optional(),
    emailAddress: z.email().max(254).optional(),
  })
  .strict();
