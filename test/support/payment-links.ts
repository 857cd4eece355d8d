import { handler as createLink } from '../../functions/create-payment-link/handler.js';
import { handler as getLink } from '../../functions/get-payment-link/handler.js';
import { handler as cancelLink } from '../../functions/cancel-payment-link/handler.js';
import { handler as payPage } from '../../functions/pay-link-page/handler.js';
import { hashSessionToken } from '../../lib/core/auth/session-token.js';
import { sessionRepository } from '../../lib/composition/core.js';
import { invoke, type InvokeResult } from './invoke.js';

const linksPath = (outletId: string) => `/transactions/outlets/${outletId}/payment-links`;

export function createPaymentLink(outletId: string, token: string, body: unknown, headers: Record<string, string> = {}): Promise<InvokeResult> {
  return invoke(createLink, { method: 'POST', path: linksPath(outletId), pathParameters: { outletId }, token, body, headers });
}

export function readPaymentLink(outletId: string, linkRef: string, token: string): Promise<InvokeResult> {
  return invoke(getLink, { path: `${linksPath(outletId)}/${linkRef}`, pathParameters: { outletId, linkRef }, token });
}

export function cancelPaymentLink(outletId: string, linkRef: string, token: string, headers: Record<string, string> = {}): Promise<InvokeResult> {
  return invoke(cancelLink, { method: 'POST', path: `${linksPath(outletId)}/${linkRef}/cancel`, pathParameters: { outletId, linkRef }, token, headers });
}

/** The public page, as a shopper's browser opens it: no token. */
export function openPaymentLink(linkRef: string): Promise<InvokeResult> {
  return invoke(payPage, { path: `/pay/${linkRef}`, pathParameters: { linkRef } });
}

/** The hosted session a 303 from /pay points to: its token and the order it is for. */
export async function sessionOf(opened: InvokeResult): Promise<{ token: string; orderRef: string }> {
  const token = new URL(opened.headers.Location!).searchParams.get('session')!;
  const session = await sessionRepository.findByTokenHash(hashSessionToken(token));
  return { token, orderRef: session!.orderRef };
}

export const linkBody = (overrides: Record<string, unknown> = {}) => ({ action: 'AUTH', amount: { currencyCode: 'AED', value: 2500 }, ...overrides });

/** A new ACTIVE link of the outlet (201 asserted): its ref. */
export async function newLinkRef(outletId: string, token: string, body: Record<string, unknown> = {}): Promise<string> {
  const created = await createPaymentLink(outletId, token, linkBody(body));
  if (created.status !== 201) throw new Error(`creating a payment link answered ${created.status}: ${created.raw}`);
  return created.body.linkRef as string;
}
