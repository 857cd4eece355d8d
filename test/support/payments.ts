import { handler as payClickToPay } from '../../functions/pay-click-to-pay/handler.js';
import { handler as payDirect } from '../../functions/pay-direct/handler.js';
import { handler as complete3ds } from '../../functions/complete-3ds/handler.js';
import { handler as acs } from '../../functions/sandbox-acs/handler.js';
import { vi } from 'vitest';
import { authorizer } from '../../lib/composition/payments.js';
import { invoke, type InvokeResult } from './invoke.js';
import type { World } from './endpoints.js';

const base = (w: Pick<World, 'outletId' | 'orderRef' | 'paymentRef'>) =>
  `/transactions/outlets/${w.outletId}/orders/${w.orderRef}/payments/${w.paymentRef}`;
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

/** Answers the sandbox ACS challenge the way the browser form does; returns the page's cres. */
export async function answerChallenge(threeDs: { acsUrl: string; creq: string }, code: string): Promise<{ page: InvokeResult; cres: string | undefined }> {
  const shown = await invoke(acs, { method: 'GET', path: '/sandbox/3ds/challenge', query: { creq: threeDs.creq } });
  if (shown.status !== 200) return { page: shown, cres: undefined };
  const page = await invoke(acs, {
    method: 'POST',
    path: '/sandbox/3ds/challenge',
    body: new URLSearchParams({ creq: threeDs.creq, code }).toString(),
    contentType: 'application/x-www-form-urlencoded',
  });
  const cres = /<pre[^>]*id="cres">([^<]+)<\/pre>/.exec(page.raw)?.[1];
  return { page, cres };
}

/** Every call the sandbox acquirer gets in this test file (it still answers as usual). */
const authorizeSpy = vi.spyOn(authorizer, 'authorize');

/** How many times the acquirer was asked to authorize this payment: the exactly-once check. */
export function authorizerCalls(paymentRef: string): number {
  return authorizeSpy.mock.calls.filter(([request]) => request.idempotencyKey === paymentRef).length;
}

const lookupSpy = vi.spyOn(authorizer, 'lookup');

/** How many times the acquirer was asked what it did for this payment (SPEC §3 lookup). */
export function lookupCalls(paymentRef: string): number {
  return lookupSpy.mock.calls.filter(([key]) => key === paymentRef).length;
}
