import * as z from 'zod';

/** 4.15 PUT body. The URL's safety (https, public address) is the use case's check. */
export const webhookConfigBody = z
  .object({
    url: z
      .string()
      .min(1)
      .max(2048)
      .describe('https; http only to localhost/127.0.0.1 for sandbox merchants; never a private, loopback, link-local or metadata address'),
    enabled: z.boolean().default(true),
  })
  .strict();
