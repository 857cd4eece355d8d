import * as z from 'zod';
import { parseEnv, positiveInt } from './parse-env.js';

/**
 * What every function that reaches an acquirer reads (the payment, lifecycle and processor
 * functions). What only verifying a checkout needs — the networks' keys, the checkout's age —
 * is ./checkout-config.ts, parsed by the payment functions alone.
 */
const schema = z
  .object({
    AUTHORIZER_TIMEOUT_MS: positiveInt(10_000),
    /** How long a PROCESSING lease blocks other attempts. */
    PAYMENT_LEASE_SECONDS: positiveInt(30),
    /**
     * How long a warm payment function trusts the merchant/platform/tenant configuration it
     * read (0 = never cached): enablement switched off takes effect within this bound.
     */
    CONFIG_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  })
  // A lease that could expire while its holder still waits for the authorizer would let a
  // second attempt in: the lease must outlive the timeout, with margin for the final write.
  .refine((c) => c.PAYMENT_LEASE_SECONDS * 1000 >= c.AUTHORIZER_TIMEOUT_MS + 5_000, {
    path: ['PAYMENT_LEASE_SECONDS'],
    message: 'must exceed AUTHORIZER_TIMEOUT_MS by at least 5 s',
  });

export type PaymentConfig = z.output<typeof schema>;
export const paymentConfig: PaymentConfig = parseEnv(schema);
