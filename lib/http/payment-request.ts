import { isIP } from 'node:net';
import * as z from 'zod';
import type { ApiEvent } from './types.js';

/** `?payer_ip=` (SPEC 4.3 step 1): IPv4 or IPv6 when present. */
export const payerIpQuery = z
  .object({
    payer_ip: z
      .string()
      .max(45)
      .refine((value) => isIP(value) !== 0, 'Expected an IPv4 or IPv6 address')
      .optional(),
  })
  .strict();

/** The payer's IP: as given, else the caller's source address. */
export function payerIp(query: { payer_ip?: string | undefined }, event: ApiEvent): string | undefined {
  return query.payer_ip ?? event.requestContext?.http?.sourceIp;
}
