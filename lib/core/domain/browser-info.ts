import * as z from 'zod';
import type { BrowserInfo } from '../ports/three-ds-server.js';

/**
 * `browserInfo` of 4.3, 4.4 and 4.10 (SPEC 4.17): what the AReq needs from the shopper's
 * browser that only JavaScript can read, plus the Accept header of the navigation that loaded
 * the page (the page cannot read it: the page handler hands it over in its bootstrap). The
 * User-Agent and Accept-Language are the request's own headers unless given here — a merchant
 * server calling 4.3 or 4.4 for a browser it serves must pass that browser's; 4.4 (never a
 * browser) requires `userAgent`. The IP is the payer IP (`?payer_ip=`, else the source IP).
 * Bounds are loose on purpose: the adapter fits values to its message tables.
 */
export const browserInfoSchema = z
  .object({
    acceptHeader: z.string().min(1).max(2048),
    language: z.string().min(1).max(64),
    colorDepth: z.number().int().min(0).max(1024),
    screenHeight: z.number().int().min(0).max(1_000_000),
    screenWidth: z.number().int().min(0).max(1_000_000),
    timeZoneOffset: z.number().int().min(-1440).max(1440),
    javaEnabled: z.boolean(),
    challengeWindowSize: z.enum(['01', '02', '03', '04', '05']),
    userAgent: z.string().min(1).max(2048).optional(),
    acceptLanguage: z.string().min(1).max(1024).optional(),
  })
  .strict();

export type PageBrowserInfo = z.output<typeof browserInfoSchema>;

/** What the request itself shows of the browser (the edge reads the headers). */
export interface BrowserHeaders {
  userAgent?: string | undefined;
  acceptLanguage?: string | undefined;
}

/** The browser data of the AReq: the page's values, the request's headers (unless given), the payer IP. */
export function browserInfoOf(page: PageBrowserInfo, headers: BrowserHeaders | undefined, payerIp: string | undefined): BrowserInfo {
  const { userAgent, acceptLanguage, ...collected } = page;
  const agent = userAgent ?? headers?.userAgent ?? '';
  const languages = acceptLanguage ?? headers?.acceptLanguage;
  return {
    ...collected,
    userAgent: agent,
    ...(languages ? { acceptLanguage: languages } : {}),
    ...(payerIp ? { ip: payerIp } : {}),
  };
}
