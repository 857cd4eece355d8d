import * as z from 'zod';

/**
 * What the hosted page sends with 4.3 (a proposal: docs/design/three-ds-server.md, "What the page
 * does"): the values only JavaScript can read, plus the Accept header of the navigation that
 * loaded the page (the page cannot read it; the page handler hands it over in the bootstrap).
 * The User-Agent, Accept-Language and source IP are taken from the 4.3 request itself, never
 * from this body. Bounds are loose on purpose: browser-fields.ts fits values to the AReq.
 */
export const browserInfoSchema = z
  .object({
    acceptHeader: z.string().min(1).max(4096),
    language: z.string().min(1).max(64),
    colorDepth: z.number().int().min(0).max(1024),
    screenHeight: z.number().int().min(0).max(1_000_000),
    screenWidth: z.number().int().min(0).max(1_000_000),
    timeZoneOffset: z.number().int().min(-1440).max(1440),
    javaEnabled: z.boolean(),
    challengeWindowSize: z.enum(['01', '02', '03', '04', '05']),
  })
  .strict();

export type PageBrowserInfo = z.output<typeof browserInfoSchema>;
