import * as z from 'zod';

/** Body of 4.5/4.6: only known methods; at least one listed. */
const setting = z.object({ enabled: z.boolean() }).strict();
export const paymentMethodsBody = z
  .object({
    paymentMethods: z
      .object({ CLICK_TO_PAY: setting.optional(), DIRECT_WALLET: setting.optional() })
      .strict()
      .refine((methods) => Object.keys(methods).length > 0, 'List at least one payment method'),
  })
  .strict();
