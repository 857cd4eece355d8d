import * as z from 'zod';

/** SPEC 4.10: the challenge result, as the ACS handed it to the browser. */
export const completeThreeDsBody = z
  .object({
    cres: z
      .string()
      .min(1)
      .max(8192)
      .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'Expected base64url'),
  })
  .strict();
