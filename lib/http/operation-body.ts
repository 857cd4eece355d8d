import * as z from 'zod';
import { amountSchema } from './amount-schema.js';

/** 4.11 / 4.13 body: an optional amount (the body itself may be left out: all that is left). */
export const operationBody = z.object({ amount: amountSchema.optional() }).strict();
