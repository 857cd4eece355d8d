import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { baseUrlOf } from '../../lib/composition/core.js';
import { logger } from '../../lib/core/ports/logger.js';
import { formBody, isBase64Url, scriptNonce } from '../../lib/http/html-page.js';
import { methodCompletedPage, refusedMethodPage } from './page.js';

/** EMV 3DS 2.2 Table A.1: threeDSMethodData of the completion is small (the id, base64url JSON). */
const METHOD_DATA_MAX = 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * POST /checkout/3ds-method-notification — the threeDSMethodNotificationURL of EMV 3DS 2.2's
 * browser flow (SPEC 4.17). The ACS's 3DS Method page, in the checkout page's hidden iframe,
 * form-POSTs `threeDSMethodData` (base64url of `{threeDSServerTransID}`, padded or not) here when
 * it has finished; the answer is a tiny page that tells the checkout page which transaction
 * finished (postMessage to our own origin). The page then calls 4.10 with `threeDSCompInd: Y`,
 * or `N` after 10 s without it. Public like the checkout page: no token, it reads and changes
 * nothing, and it proves nothing — a lie only costs the liar frictionlessness.
 */
export const handler = async (event: APIGatewayProxyEventV2) => {
  const form = formBody(event);
  if (!form) return page(415, refusedMethodPage());
  const data = form.get('threeDSMethodData') ?? '';
  const transactionId = isBase64Url(data, METHOD_DATA_MAX) ? transactionOf(data) : undefined;
  if (!transactionId) {
    logger.info('3DS Method notification refused: not a completion', { length: data.length });
    return page(400, refusedMethodPage());
  }
  const nonce = scriptNonce();
  return page(200, methodCompletedPage(new URL(baseUrlOf(event)).origin, transactionId, nonce), nonce);
};

/** `{"threeDSServerTransID": "<uuid>"}`, base64url with or without padding (3dsmethod.rst: both must be read). */
function transactionOf(data: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(data.replace(/=+$/, ''), 'base64url').toString('utf8'));
    const id = (parsed as { threeDSServerTransID?: unknown } | null)?.threeDSServerTransID;
    return typeof id === 'string' && UUID.test(id) ? id.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/** Only our own checkout page may frame it (the 3DS Method iframe's parent); nothing loaded but its one inline script. */
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
