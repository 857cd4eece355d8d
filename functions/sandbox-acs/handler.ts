import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { documentClient } from '../../lib/aws/clients.js';
import { serviceConfig } from '../../lib/config/service-config.js';
import { DependencyUnavailableError } from '../../lib/errors.js';
import { logger } from '../../lib/logger.js';
import { withInvocationDeadline } from '../../lib/http/invocation-deadline.js';
import { buildCres, parseCreq, SANDBOX_CHALLENGE_CODE, type SandboxCreq } from '../../lib/sandbox/sandbox-three-ds.js';
import { authenticatedEci } from '../../lib/payments/three-ds-policy.js';
import { ConditionFailed } from '../../lib/repositories/dynamo.js';
import { PaymentRepository } from '../../lib/repositories/payment-repository.js';
import { challengeForm, challengeResult, errorPage } from './page.js';

const payments = new PaymentRepository(documentClient, serviceConfig.ORDERS_TABLE);

/**
 * The sandbox ACS (SPEC §5): GET shows the challenge for a CReq, POST checks the code
 * (1234 → authenticated) and records the outcome on the payment's pending 3DS item, once.
 * Only challenges of sandbox merchants exist here; anything else is "unavailable".
 */
export const handler = withInvocationDeadline(async (event: APIGatewayProxyEventV2) => {
  const method = event.requestContext?.http?.method ?? 'GET';
  try {
    if (method === 'GET') {
      const creq = parseCreq(event.queryStringParameters?.creq ?? '');
      const pending = await pendingFor(creq);
      if (!pending) return html(404, errorPage('This verification request is unknown or has expired.'));
      const payment = await payments.get(creq.orderRef, creq.paymentRef);
      const amount = payment ? formatAmount(payment.amount.value, payment.amount.currencyCode) : '';
      return html(200, challengeForm(event.queryStringParameters!.creq!, amount));
    }
    const form = new URLSearchParams(event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64').toString() : (event.body ?? ''));
    const creq = parseCreq(form.get('creq') ?? '');
    const pending = await pendingFor(creq);
    if (!pending) return html(404, errorPage('This verification request is unknown or has expired.'));
    const authenticated = form.get('code') === SANDBOX_CHALLENGE_CODE;
    const brand = (await payments.get(creq.orderRef, creq.paymentRef))?.paymentMethod?.brand ?? 'VISA';
    await payments.recordChallengeResult(creq.orderRef, creq.paymentRef, creq.threeDSServerTransID, {
      transStatus: authenticated ? 'Y' : 'N',
      ...(authenticated ? { eci: authenticatedEci(brand) } : {}),
      at: new Date().toISOString(),
    });
    const nonce = randomBytes(16).toString('base64');
    return html(200, challengeResult(buildCres(creq, authenticated ? 'Y' : 'N'), authenticated, nonce), nonce);
  } catch (error) {
    if (error instanceof ConditionFailed) return html(409, errorPage('This verification was already answered.'));
    if (error instanceof DependencyUnavailableError) {
      logger.warn('sandbox ACS unavailable', { error });
      const page = html(503, errorPage('Verification is temporarily unavailable: please try again in a moment.'));
      return { ...page, headers: { ...page.headers, ...error.headers } };
    }
    logger.warn('sandbox ACS request failed', { error });
    return html(400, errorPage('This verification request is not valid.'));
  }
});

async function pendingFor(creq: SandboxCreq) {
  const pending = await payments.getPendingThreeDs(creq.orderRef, creq.paymentRef);
  return pending && pending.environment === 'sandbox' && pending.transactionId === creq.threeDSServerTransID ? pending : undefined;
}

function formatAmount(minor: number, currency: string): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return new Intl.NumberFormat('en', { style: 'currency', currency }).format(minor / 10 ** digits);
}

function html(statusCode: number, body: string, nonce?: string) {
  return {
    statusCode,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'self'; base-uri 'none'${nonce ? `; script-src 'nonce-${nonce}'` : ''}`,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
    body,
  };
}
