import * as z from 'zod';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** Amounts are integers in minor units with an ISO 4217 code (SPEC §3). */
export const amountSchema = z
  .object({
    currencyCode: z.string().refine((code) => CURRENCIES.has(code), 'Expected an ISO 4217 currency code'),
    value: z.number().int('Expected a positive integer').positive('Expected a positive integer').max(1e12),
  })
  .strict();
