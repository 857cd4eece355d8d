import * as z from 'zod';
import { containsCardNumber } from '../core/domain/card-numbers.js';

export const CARD_NUMBER_REFUSED = 'Must not contain a card number';

/**
 * Merchant free text (SPEC §3: no PAN at rest): a string that holds a card number — 13–19
 * digits passing the Luhn check, plain or grouped by spaces, dashes, dots or slashes — is a 400
 * naming the field, by the rule the log redaction uses (lib/core/domain/card-numbers.ts). The message
 * never repeats the value. `schema` carries the field's own limits (length, characters).
 */
export function freeText<S extends z.ZodString>(schema: S): S {
  return schema
    .refine((text) => !containsCardNumber(text), { message: CARD_NUMBER_REFUSED })
    .describe(
      `${schema.description ? `${schema.description} ` : ''}Refused (400, naming the field) when it contains a card number: 13–19 digits passing the Luhn check, plain or grouped by spaces, dashes, dots or slashes.`,
    ) as S;
}

/** The merchant's own reference of an order or a payment link (4.8, 4.14). */
export const merchantOrderReference = freeText(
  z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[\x20-\x7E]+$/, 'Printable ASCII only'),
);
