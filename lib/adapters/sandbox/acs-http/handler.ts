import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { DependencyUnavailableError } from '../../../core/errors.js';
import { authenticatedEci } from '../../../core/payments/three-ds-policy.js';
import type { Logger } from '../../../core/ports/logger.js';
import { StoreConflictError } from '../../../core/ports/store-conflict.js';
import { errorHeaders } from '../../../http/error-status.js';
import { formBody, isBase64Url, scriptNonce } from '../../../http/html-page.js';
import { withInvocationDeadline } from '../../../http/invocation-deadline.js';
import type { SandboxAcsRepository } from '../sandbox-acs-repository.js';
import { buildCres, parseCreq, SANDBOX_CHALLENGE_CODE } from '../sandbox-three-ds.js';
import { challengeForm, cresForm, errorPage } from './page.js';

/** EMV 3DS 2.2: threeDSSessionData is base64url, at most 1024 characters. */
const SESSION_DATA_MAX = 1024;
const CREQ_MAX = 4096;

/**
 * The sandbox ACS (SPEC §5), as a real issuer's ACS works in the browser flow: the page
 * form-POSTs `creq` (+ `threeDSSessionData`) here inside its challenge frame, possibly from
 * another origin; the answer is the challenge. Its form POSTs the code back; 1234 → `Y`, anything
 * else → `N`, recorded once as the result the 3DS server reads (the RReq). Then the final CRes
 * is form-POSTed to the notification URL the challenge was started with.
 */
export function createSandboxAcsHandler({ transactions, logger, now }: { transactions: SandboxAcsRepository; logger: Logger; now: () => number }) {
  return withInvocationDeadline(async (event: APIGatewayProxyEventV2) => {
    if ((event.requestContext?.http?.method ?? 'POST') !== 'POST')
      return { ...page(405, errorPage('Open this page by a form POST of a creq.')), headers: { ...headersFor(), Allow: 'POST' } };
    const form = formBody(event);
    if (!form) return page(415, errorPage('A challenge request is form-POSTed (application/x-www-form-urlencoded).'));
    const creqValue = form.get('creq') ?? '';
    const sessionData = form.get('threeDSSessionData') ?? undefined;
    const creq = isBase64Url(creqValue, CREQ_MAX) ? parseCreq(creqValue) : undefined;
    if (!creq || (sessionData !== undefined && !isBase64Url(sessionData, SESSION_DATA_MAX)))
      return page(400, errorPage('This verification request is not valid.'));
    try {
      const transaction = await transactions.get(creq.threeDSServerTransID);
      if (!transaction || transaction.acsTransactionId !== creq.acsTransID) return page(404, errorPage('This verification request is unknown or has expired.'));
      const parent = new URL(transaction.notificationUrl).origin;
      if (transaction.result) return page(409, errorPage('This verification was already answered.'), parent);
      const code = form.get('code');
      if (code === null) {
        const nonce = scriptNonce();
        return page(200, challengeForm(creqValue, sessionData, formatAmount(transaction.amount.value, transaction.amount.currencyCode), nonce), parent, nonce);
      }

      const authenticated = code === SANDBOX_CHALLENGE_CODE;
      await transactions.recordResult(transaction.transactionId, transaction.acsTransactionId, {
        transStatus: authenticated ? 'Y' : 'N',
        ...(authenticated ? { eci: authenticatedEci(transaction.brand) } : {}),
        at: new Date(now()).toISOString(),
      });
      const nonce = scriptNonce();
      return page(200, cresForm(transaction.notificationUrl, buildCres(creq, authenticated ? 'Y' : 'N'), sessionData, authenticated, nonce), parent, nonce);
    } catch (error) {
      if (error instanceof StoreConflictError) return page(409, errorPage('This verification was already answered.'));
      if (error instanceof DependencyUnavailableError) {
        logger.warn('sandbox ACS unavailable', { error });
        const unavailable = page(503, errorPage('Verification is temporarily unavailable: please try again in a moment.'));
        return { ...unavailable, headers: { ...unavailable.headers, ...errorHeaders(error) } };
      }
      logger.error('sandbox ACS failed', { error });
      return page(500, errorPage('Verification failed unexpectedly.'));
    }
  });
}

function formatAmount(minor: number, currency: string): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return new Intl.NumberFormat('en', { style: 'currency', currency }).format(minor / 10 ** digits);
}

/**
 * Framed by the checkout page of the service that started the challenge (the notification
 * URL's origin), and its forms go only to itself or there. Pages before the challenge is known
 * (errors) say nothing worth protecting and may be framed by any checkout.
 */
function headersFor(parent?: string, nonce?: string): Record<string, string> {
  const csp = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    nonce ? `script-src 'nonce-${nonce}'` : undefined,
    parent ? `form-action 'self' ${parent}` : "form-action 'none'",
    `frame-ancestors ${parent ?? '*'}`,
    "base-uri 'none'",
  ].filter(Boolean);
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': csp.join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
}

function page(statusCode: number, body: string, parent?: string, nonce?: string) {
  return { statusCode, headers: headersFor(parent, nonce), body };
}
