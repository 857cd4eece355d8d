import * as z from 'zod';
import { decodeJsonBase64Url, encodeJsonBase64Url } from './base64url.js';

/**
 * The 3DS Method (3dsmethod.rst). The page form-POSTs `threeDSMethodData` — base64url of
 * `{threeDSServerTransID, threeDSMethodNotificationURL}` — to the card range's threeDSMethodURL
 * in a hidden iframe; the ACS's page fingerprints the browser and form-POSTs
 * `threeDSMethodData` = base64url of `{threeDSServerTransID}` to the notification URL. No
 * completion within 10 s: threeDSCompInd N; no method URL: U; completion: Y.
 */
export function methodData(threeDSServerTransID: string, threeDSMethodNotificationURL: string): string {
  return encodeJsonBase64Url({ threeDSServerTransID, threeDSMethodNotificationURL });
}

/** EMV 3DS 2.2 Table A.1: the 3DS Method notification URL is at most 256 characters. */
export const METHOD_NOTIFICATION_URL_MAX = 256;
/** 3dsmethod.rst "3DS Method failure": no completion within 10 seconds means it failed. */
export const METHOD_TIMEOUT_MS = 10_000;

/** Built at the first completion read, not at import: the payment functions load this module for methodData alone. */
let completion: z.ZodType<{ threeDSServerTransID: string }> | undefined;

/** The transaction id a completion POST names (padded or unpadded base64url); undefined if it is none. */
export function parseMethodCompletion(threeDSMethodData: string): string | undefined {
  completion ??= z.object({ threeDSServerTransID: z.uuid() });
  const parsed = completion.safeParse(decodeJsonBase64Url(threeDSMethodData, 1024));
  return parsed.success ? parsed.data.threeDSServerTransID : undefined;
}
