import { handler as payClickToPay } from '../../functions/pay-click-to-pay/handler.js';
import { handler as payDirect } from '../../functions/pay-direct/handler.js';
import { handler as complete3ds } from '../../functions/complete-3ds/handler.js';
import { handler as acs } from '../../functions/sandbox-acs/handler.js';
import { vi } from 'vitest';
import { authorizer } from './sandbox-acquirer.js';
import { invoke, type InvokeResult } from './invoke.js';
import type { World } from './endpoints.js';

const base = (w: Pick<World, 'outletId' | 'orderRef' | 'paymentRef'>) => `/transactions/outlets/${w.outletId}/orders/${w.orderRef}/payments/${w.paymentRef}`;
const params = (w: Pick<World, 'outletId' | 'orderRef' | 'paymentRef'>) => ({ outletId: w.outletId, orderRef: w.orderRef, paymentRef: w.paymentRef });

export function pay(w: Pick<World, 'outletId' | 'orderRef' | 'paymentRef'>, token: string, sdkResult: unknown, query?: Record<string, string>) {
  return invoke(payClickToPay, {
    method: 'POST',
    path: `${base(w)}/click-to-pay`,
    pathParameters: params(w),
    token,
    body: { checkoutResponse: sdkResult },
    ...(query ? { query } : {}),
  });
}

export function payDirectly(w: Pick<World, 'outletId' | 'orderRef' | 'paymentRef'>, token: string, body: unknown) {
  return invoke(payDirect, { method: 'POST', path: `${base(w)}/click-to-pay/direct`, pathParameters: params(w), token, body });
}

export function completeThreeDs(w: Pick<World, 'outletId' | 'orderRef' | 'paymentRef'>, token: string, cres: string) {
  return invoke(complete3ds, { method: 'POST', path: `${base(w)}/3ds`, pathParameters: params(w), token, body: { cres } });
}

/** A form POST to the sandbox ACS, as the page's hidden form and the challenge form send it. */
export function postToAcs(fields: Record<string, string>, contentType = 'application/x-www-form-urlencoded') {
  return invoke(acs, { method: 'POST', path: '/sandbox/3ds/challenge', body: new URLSearchParams(fields).toString(), contentType });
}

/** The hidden field `name` of an HTML form (values are HTML-escaped base64url: nothing to unescape). */
export const formField = (html: string, name: string): string | undefined => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];

/**
 * Runs the sandbox ACS challenge as the browser does (EMV 3DS 2.2): the creq form-POSTed,
 * then the code; returns the last page (the one that form-POSTs the cres to the notification
 * URL) and its cres.
 */
export async function answerChallenge(
  threeDs: { acsUrl: string; creq: string },
  code: string,
  threeDSSessionData?: string,
): Promise<{ page: InvokeResult; cres: string | undefined }> {
  const session: Record<string, string> = threeDSSessionData === undefined ? {} : { threeDSSessionData };
  const shown = await postToAcs({ creq: threeDs.creq, ...session });
  if (shown.status !== 200) return { page: shown, cres: undefined };
  const page = await postToAcs({ creq: threeDs.creq, ...session, code });
  return { page, cres: formField(page.raw, 'cres') };
}

/** Every call the sandbox acquirer gets in this test file (it still answers as usual). */
const authorizeSpy = vi.spyOn(authorizer, 'authorize');

/** How many times the acquirer was asked to authorize this payment: the exactly-once check. */
export function authorizerCalls(paymentRef: string): number {
  return authorizeSpy.mock.calls.filter(([request]) => request.idempotencyKey === paymentRef).length;
}

const recoverSpy = vi.spyOn(authorizer, 'recover');

/** How many times the acquirer was asked what it did for this payment (SPEC §3 recovery). */
export function lookupCalls(paymentRef: string): number {
  return recoverSpy.mock.calls.filter(([query]) => query.operation === 'AUTHORIZE' && query.reference === paymentRef).length;
}

/** A well-formed CRes for the challenge `threeDs` started (from its creq), claiming `transStatus`: what a forger can make. */
export function cresFor(threeDs: { creq: string }, transStatus = 'Y', overrides: Record<string, unknown> = {}): string {
  const creq = JSON.parse(Buffer.from(threeDs.creq, 'base64url').toString('utf8')) as { threeDSServerTransID: string; acsTransID: string };
  const message = {
    messageType: 'CRes',
    messageVersion: '2.2.0',
    threeDSServerTransID: creq.threeDSServerTransID,
    acsTransID: creq.acsTransID,
    challengeCompletionInd: 'Y',
    transStatus,
    ...overrides,
  };
  return Buffer.from(JSON.stringify(message)).toString('base64url');
}

/** A CRes of no challenge at all (well-formed, random ids). */
export const strangerCres = (transStatus = 'Y'): string =>
  Buffer.from(
    JSON.stringify({ messageType: 'CRes', messageVersion: '2.2.0', threeDSServerTransID: crypto.randomUUID(), acsTransID: crypto.randomUUID(), transStatus }),
  ).toString('base64url');
