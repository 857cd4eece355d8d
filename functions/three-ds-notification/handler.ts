import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { formBody, isBase64Url, scriptNonce } from '../../lib/http/html-page.js';
import { logger } from '../../lib/core/ports/logger.js';
import { notificationPage, refusedPage } from './page.js';
import { baseUrlOf } from '../../lib/composition/core.js';

/** As 4.10 accepts it (functions/complete-3ds/schema.ts); EMV caps threeDSSessionData at 1024. */
const CRES_MAX = 8192;
const SESSION_DATA_MAX = 1024;

/**
 * POST /checkout/3ds-notification — the notification URL of EMV 3DS 2.2's browser flow. The
 * ACS form-POSTs the final `cres` (+ `threeDSSessionData`) here, in the challenge frame; the
 * answer is a tiny page that hands them to the checkout page (postMessage to our own origin),
 * which calls 4.10. Public like the checkout page: no token reaches it or leaves it, it reads
 * and changes nothing, and it proves nothing — 4.10 checks the result with the 3DS server.
 */
export const handler = async (event: APIGatewayProxyEventV2) => {
  const form = formBody(event);
  if (!form) return page(415, refusedPage());
  const cres = form.get('cres') ?? '';
  const sessionData = form.get('threeDSSessionData') ?? undefined;
  if (!isBase64Url(cres, CRES_MAX) || (sessionData !== undefined && !isBase64Url(sessionData, SESSION_DATA_MAX))) {
    logger.info('3DS notification refused: not a base64url cres', { cresLength: cres.length });
    return page(400, refusedPage());
  }
  const nonce = scriptNonce();
  return page(200, notificationPage(new URL(baseUrlOf(event)).origin, cres, sessionData, nonce), nonce);
};

/**
 * Only our own checkout page may frame it (the challenge frame's parent); no form, no base,
 * nothing loaded but its one inline script.
 */
function page(statusCode: number, body: string, nonce?: string) {
  return {
    statusCode,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': [
        `default-src 'none'`,
        ...(nonce ? [`script-src 'nonce-${nonce}'`] : []),
        "form-action 'none'",
        "frame-ancestors 'self'",
        "base-uri 'none'",
      ].join('; '),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
    body,
  };
}
