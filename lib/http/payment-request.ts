import { isIP } from 'node:net';
import * as z from 'zod';
import type { BrowserHeaders } from '../core/domain/browser-info.js';
import { headerValue } from './json-body.js';
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

/** The shopper's User-Agent and Accept-Language as this request carries them (an EMV 3DS AReq's browser fields). */
export function browserHeaders(event: ApiEvent): BrowserHeaders {
  return { userAgent: headerValue(event, 'user-agent'), acceptLanguage: headerValue(event, 'accept-language') };
}
